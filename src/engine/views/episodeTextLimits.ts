// Limits of what the Episode panel is sent besides messages. Equal to the protocol's constants of
// the same names (runtime constants, which engine may not import; a test checks them).

/** Largest metadata, as JSON text, sent with the episode. */
export const maxMetadataChars = 262_144;
/** Most bytes of the episode's trace record the raw-record view is sent. */
export const maxRawRecordBytes = 524_288;
