import {
  DidChangeSummaryNotification,
  OpenIssueCommand,
  ReadyCommand,
  runSummaryStateVersion,
} from '../../src/protocol/runSummaryPanel';
import { replaceChildren } from './dom';
import { acquireHost } from './host';
import { HostIpc } from './ipc';
import { renderLoading, renderSummary } from './renderSummary';

// Entry of the Run Summary webview: listen first, then tell the host we are ready, then render
// whatever summary it sends (again after every reload of the webview).
const app = document.getElementById('app') ?? document.body;
const ipc = new HostIpc(acquireHost(), window);

replaceChildren(app, renderLoading());
ipc.on(DidChangeSummaryNotification, (data) => {
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
