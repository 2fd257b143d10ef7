#!/usr/bin/env node
// The `zarpay` operator CLI. The project runs its TypeScript directly (no build step), so this
// shim registers the TypeScript loader and hands over to src/cli.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/index.ts');
