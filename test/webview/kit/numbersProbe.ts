import { formatInt, formatNumber } from '../../../webview/src/kit/format';

// Run by format.test.ts in a child Node with another default locale: prints what the kit formats
// there, next to what the platform's own default formatting gives.
console.log(
  JSON.stringify({ kit: `${formatInt(1234567)} ${formatNumber(-1920.5)}`, platform: (1234567).toLocaleString() }),
);
