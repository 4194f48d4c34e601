// Stands in for VS Code's webview API in the harness page: acquireVsCodeApi() returns an object
// whose postMessage hands the message to the test (window.__harnessPosted, exposed by Playwright)
// and whose state survives a reload (sessionStorage), as VS Code's getState/setState do.
(() => {
  let acquired = false;
  window.__posted = [];
  window.acquireVsCodeApi = () => {
    if (acquired) throw new Error('acquireVsCodeApi may only be called once');
    acquired = true;
    return {
      postMessage(message) {
        const copy = JSON.parse(JSON.stringify(message));
        window.__posted.push(copy);
        if (typeof window.__harnessPosted === 'function') void window.__harnessPosted(copy);
      },
      getState() {
        const saved = sessionStorage.getItem('vscode-state');
        return saved === null ? undefined : JSON.parse(saved);
      },
      setState(state) {
        sessionStorage.setItem('vscode-state', JSON.stringify(state));
        return state;
      },
    };
  };
})();
