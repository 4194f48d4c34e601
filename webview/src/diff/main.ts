import type { EpisodeDiffViewState } from '../../../src/protocol/episodeDiffPanel';
import { registerToolkit } from '../components/toolkit';
import { acquireHost } from '../host';
import { HostIpc } from '../ipc';
import { DiffApp } from './app';

// Entry of the diff webview: register the toolkit's elements, listen, then tell the host we are
// ready (with the pair restored from the saved state, if any).
registerToolkit();
const app = document.getElementById('app') ?? document.body;
const host = acquireHost<EpisodeDiffViewState>();
new DiffApp(app, new HostIpc(host, window), host).start();
