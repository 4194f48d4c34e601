// Entry of the Episode webview (being written).
