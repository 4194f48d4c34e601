import type { EpisodeViewState } from '../../../src/protocol/episodePanel';
import { registerToolkit } from '../components/toolkit';
import { acquireHost } from '../host';
import { HostIpc } from '../ipc';
import { EpisodeApp } from './app';

// Entry of the Episode webview: register the toolkit's elements, listen, then tell the host we are
// ready (with the episode restored from the saved state, if any).
registerToolkit();
const app = document.getElementById('app') ?? document.body;
new EpisodeApp(app, new HostIpc(acquireHost<EpisodeViewState>(), window), acquireHost<EpisodeViewState>()).start();
