/** What each credit method is called in the views: the one map, shared with the host (src/protocol/viewData.ts). */
export { methodLabels } from '../../src/protocol/viewData';
