// The sentences that describe a flag are shared with the Episode and Dashboard panels' data
// services (src/engine/views/flagView.ts); the diagnostics and tree views keep importing them here.
export { flagHeadline, flagMessage, flagScope, formatNumber } from '../../engine/views/flagView';
