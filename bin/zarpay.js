#!/usr/bin/env node
// The `zarpay` operator CLI (bin/launch.js: compiled when build/ is fresh, else the TypeScript).
import { launch } from './launch.js';

await launch('cli/index');
