/** Tag names of the registered components, for `document.createElement`. */
export const toolkitTags = {
  badge: 'vscode-badge',
  button: 'vscode-button',
  checkbox: 'vscode-checkbox',
  divider: 'vscode-divider',
  dropdown: 'vscode-dropdown',
  option: 'vscode-option',
  progressRing: 'vscode-progress-ring',
  tag: 'vscode-tag',
  textField: 'vscode-text-field',
} as const;
