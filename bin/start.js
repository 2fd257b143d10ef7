#!/usr/bin/env node
// `npm start`: the whole service, in this one process (bin/launch.js: compiled when build/ is
// fresh, else the TypeScript), so that signalling the PID npm started stops the service.
import { launch } from './launch.js';

await launch('main');
