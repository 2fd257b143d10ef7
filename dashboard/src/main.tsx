import { render } from 'preact';
import { App } from './app.tsx';

/** The dashboard's entry point (what dashboard/build.ts bundles): it only renders the application. */
render(<App />, document.getElementById('app')!);
