// Entry of the Run Dashboard webview (being written).
