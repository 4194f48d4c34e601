import {
  DidChangeSummaryNotification,
  OpenIssueCommand,
  ReadyCommand,
  runSummaryStateVersion,
  type RunSummaryViewState,
} from '../../src/protocol/runSummaryPanel';
import { replaceChildren } from './dom';
import { acquireHost } from './host';
import { HostIpc } from './ipc';
import { renderLoading, renderSummary } from './renderSummary';

// Entry of the Run Summary webview: listen first, then tell the host we are ready, then render
// whatever summary it sends (again after every reload of the webview). The folder shown is saved,
// so the host can read its index again when VS Code restores the panel after a reload.
const app = document.getElementById('app') ?? document.body;
const host = acquireHost<RunSummaryViewState>();
const ipc = new HostIpc(host, window);

replaceChildren(app, renderLoading());
ipc.on(DidChangeSummaryNotification, (data) => {
  host.setState({ version: runSummaryStateVersion, folder: data.folderPath });
  replaceChildren(
    app,
    ...renderSummary(data, {
      openIssue: ({ file, line }) => {
        ipc.send(OpenIssueCommand, { file, line });
      },
    }),
  );
});
ipc.send(ReadyCommand, { stateVersion: runSummaryStateVersion });
