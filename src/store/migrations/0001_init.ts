/** Schema 1 (see the comment at the top of the SQL). Kept as a TS module so tsx and esbuild load it alike. */
export const init0001 = `
-- Credit Lens index, schema 1. Adapted from trace-formats.md §5 for import speed and size:
-- * message text is not copied into the index; each episode keeps (source, byte_offset,
--   byte_length), so the raw record and message bodies are read back from the trace file;
-- * per-message index data is packed into episode.messages_json (one row per episode instead of
--   one per message) and exposed as the view "message"; a message is identified by
--   (episode_id, seq), and message_id = episode_id * 16777216 + seq where one integer is needed
--   (the full-text index's rowid).

CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE run (
  run_id         INTEGER PRIMARY KEY,
  root           TEXT NOT NULL UNIQUE,   -- run folder relative to the indexed folder ('' = itself)
  name           TEXT NOT NULL,
  mechanism      TEXT,                   -- pipeline | vote | routed | debate
  framework      TEXT,
  algorithm      TEXT,
  format_version TEXT,
  evaluator_json TEXT,
  config_json    TEXT                    -- the manifest as read
);

CREATE TABLE source (
  source_id        INTEGER PRIMARY KEY,
  run_id           INTEGER NOT NULL REFERENCES run,
  uri              TEXT NOT NULL UNIQUE, -- path relative to the indexed folder
  format           TEXT NOT NULL,        -- 'credit_lens_jsonl'
  format_version   TEXT,
  size             INTEGER NOT NULL,     -- file size when last read
  mtime_ms         REAL NOT NULL,
  indexed_offset   INTEGER NOT NULL,     -- bytes consumed: always the end of a complete line
  lines            INTEGER NOT NULL,     -- complete lines consumed
  head_hash        TEXT NOT NULL,        -- hash of the first bytes, to detect a rewritten file
  imported_at      TEXT NOT NULL,
  importer_version TEXT NOT NULL
);
CREATE INDEX source_run ON source(run_id);

CREATE TABLE agent (
  agent_id    INTEGER PRIMARY KEY,
  run_id      INTEGER NOT NULL REFERENCES run,
  name        TEXT NOT NULL,
  kind        TEXT NOT NULL DEFAULT 'llm',
  policy_id   TEXT,
  trainable   INTEGER,
  description TEXT,
  UNIQUE(run_id, name)
);

CREATE TABLE agent_alias (
  run_id    INTEGER NOT NULL REFERENCES run,
  raw_label TEXT NOT NULL,
  agent_id  INTEGER NOT NULL REFERENCES agent,
  channel   TEXT,
  PRIMARY KEY(run_id, raw_label)
) WITHOUT ROWID;
CREATE INDEX agent_alias_agent ON agent_alias(agent_id);

CREATE TABLE episode (
  episode_id     INTEGER PRIMARY KEY,
  run_id         INTEGER NOT NULL REFERENCES run,
  source_id      INTEGER NOT NULL REFERENCES source ON DELETE CASCADE,
  line           INTEGER NOT NULL,       -- 1-based line in the source
  byte_offset    INTEGER NOT NULL,
  byte_length    INTEGER NOT NULL,
  external_id    TEXT NOT NULL,
  task_id        TEXT,
  group_id       TEXT,
  sample_idx     INTEGER,
  train_step     INTEGER,
  split          TEXT,
  ground_truth   TEXT,
  outcome        REAL,                   -- team reward as logged
  final_answer   TEXT,
  final_agent_id INTEGER REFERENCES agent,
  n_messages     INTEGER NOT NULL,
  n_tokens       INTEGER,
  -- one entry per message in seq order: [roster ordinal, turn, role, channel, n_chars, n_tokens, has_tokens]
  messages_json  TEXT NOT NULL,
  metadata_json  TEXT,
  search_indexed INTEGER NOT NULL DEFAULT 0,
  UNIQUE(run_id, external_id)
);
CREATE INDEX episode_step ON episode(run_id, train_step, outcome);
CREATE INDEX episode_outcome ON episode(run_id, outcome);
CREATE INDEX episode_group ON episode(run_id, group_id);
CREATE INDEX episode_source ON episode(source_id, line);
CREATE INDEX episode_unsearched ON episode(episode_id) WHERE search_indexed = 0;

CREATE TABLE episode_agent (             -- roster, including declared-but-silent agents
  episode_id INTEGER NOT NULL REFERENCES episode ON DELETE CASCADE,
  agent_id   INTEGER NOT NULL REFERENCES agent,
  ordinal    INTEGER NOT NULL,           -- position in the roster: declared agents, then other speakers
  declared   INTEGER NOT NULL,           -- 1 = in the declared roster, 0 = only seen speaking
  n_messages INTEGER NOT NULL,
  n_tokens   INTEGER,
  n_chars    INTEGER NOT NULL,
  reward     REAL,                       -- logged per-agent reward (agentRewards)
  advantage  REAL,                       -- logged per-agent advantage (advantages)
  PRIMARY KEY(episode_id, agent_id)
) WITHOUT ROWID;
CREATE INDEX episode_agent_agent ON episode_agent(agent_id);

CREATE VIEW message AS
  SELECT e.episode_id * 16777216 + j.key AS message_id, e.episode_id, j.key AS seq, ea.agent_id,
    j.value ->> 1 AS turn_idx, j.value ->> 2 AS role, j.value ->> 3 AS channel,
    j.value ->> 4 AS n_chars, j.value ->> 5 AS n_tokens, j.value ->> 6 AS has_tokens
  FROM episode e, json_each(e.messages_json) j
  JOIN episode_agent ea ON ea.episode_id = e.episode_id AND ea.ordinal = j.value ->> 0;

-- Full-text search over message content; rowid = message_id (see above). Contentless (the text stays in the
-- trace files) and detail=none (term and prefix queries, no phrases) to keep it small.
CREATE VIRTUAL TABLE message_fts USING fts5(content, content='', contentless_delete=1, detail=none);

CREATE TABLE reward (
  reward_id  INTEGER PRIMARY KEY,
  episode_id INTEGER NOT NULL REFERENCES episode ON DELETE CASCADE,
  agent_id   INTEGER REFERENCES agent,   -- NULL = team
  message_seq INTEGER,                   -- NULL = not turn-specific
  name       TEXT NOT NULL,
  kind       TEXT NOT NULL,              -- outcome | shaped | metric | return (per-agent reward and advantage live on episode_agent)
  value      REAL,
  value_raw  TEXT,
  source     TEXT NOT NULL DEFAULT 'logged'
);
CREATE INDEX reward_episode ON reward(episode_id);
CREATE INDEX reward_agent ON reward(agent_id, kind);

CREATE TABLE label (
  label_id   INTEGER PRIMARY KEY,
  episode_id INTEGER NOT NULL REFERENCES episode ON DELETE CASCADE,
  agent_id   INTEGER REFERENCES agent,
  message_seq INTEGER,                   -- the labelled message (episode_id, seq)
  kind       TEXT NOT NULL,
  value      TEXT,
  reason     TEXT,
  annotator  TEXT
);
CREATE INDEX label_episode ON label(episode_id);
CREATE INDEX label_agent ON label(agent_id);

CREATE TABLE routing (
  episode_id           INTEGER PRIMARY KEY REFERENCES episode ON DELETE CASCADE,
  selected_agent_id    INTEGER NOT NULL REFERENCES agent,
  probs_json           TEXT NOT NULL,    -- {agent name: probability} over all experts
  behaviour_probs_json TEXT
);
CREATE INDEX routing_selected ON routing(selected_agent_id);

CREATE TABLE counterfactual (
  cf_id        INTEGER PRIMARY KEY,
  episode_id   INTEGER NOT NULL REFERENCES episode ON DELETE CASCADE,
  agents       TEXT NOT NULL,            -- sorted agent ids removed or replaced, e.g. '3,5'
  intervention TEXT NOT NULL,            -- remove | empty | placeholder | resample_self | resample_ref | replace_text
  replacement  TEXT,
  replayed     INTEGER,
  n            INTEGER,
  returns_json TEXT,
  value        REAL NOT NULL,
  evaluator    TEXT,
  source       TEXT NOT NULL             -- logged | computed
);
CREATE INDEX counterfactual_episode ON counterfactual(episode_id, agents);

CREATE TABLE coalition_value (          -- v(S) of an episode's coalitions, one row per episode and source
  episode_id  INTEGER NOT NULL REFERENCES episode ON DELETE CASCADE,
  source      TEXT NOT NULL,             -- logged | computed
  values_json TEXT NOT NULL,             -- {"<sorted agent ids>": v(S)}; "" = the empty coalition
  counts_json TEXT,                      -- {"<sorted agent ids>": rollouts behind v(S)} when known
  PRIMARY KEY(episode_id, source)
) WITHOUT ROWID;

CREATE TABLE credit (
  credit_id   INTEGER PRIMARY KEY,
  run_id      INTEGER NOT NULL REFERENCES run,
  episode_id  INTEGER REFERENCES episode ON DELETE CASCADE,  -- NULL = run or group scope
  scope_kind  TEXT NOT NULL,             -- episode | group | run
  scope_id    TEXT NOT NULL,
  agent_id    INTEGER NOT NULL REFERENCES agent,
  message_seq INTEGER,                   -- set for per-message credit
  method      TEXT NOT NULL,
  value       REAL,
  stderr      REAL,
  n           INTEGER,
  params_hash TEXT NOT NULL,
  params_json TEXT,
  computed_at TEXT NOT NULL
);
CREATE INDEX credit_run_method_agent ON credit(run_id, method, agent_id);
CREATE INDEX credit_episode ON credit(episode_id, method);
CREATE INDEX credit_agent ON credit(agent_id);

CREATE TABLE flag (
  flag_id       INTEGER PRIMARY KEY,
  run_id        INTEGER NOT NULL REFERENCES run,
  scope_kind    TEXT NOT NULL,           -- episode | step | run
  scope_id      TEXT NOT NULL,
  agent_id      INTEGER REFERENCES agent,
  kind          TEXT NOT NULL,           -- silent | idle | free_rider | dominant | decoupling
  score         REAL,
  evidence_json TEXT,
  computed_at   TEXT NOT NULL
);
CREATE INDEX flag_run_kind ON flag(run_id, kind);
CREATE INDEX flag_agent ON flag(agent_id);

CREATE TABLE parse_error (
  error_id    INTEGER PRIMARY KEY,
  source_id   INTEGER NOT NULL REFERENCES source ON DELETE CASCADE,
  line        INTEGER NOT NULL,          -- 1-based; 0 = the file as a whole
  byte_offset INTEGER NOT NULL,
  reason      TEXT NOT NULL,
  excerpt     TEXT                       -- the first characters of the line
);
CREATE INDEX parse_error_source ON parse_error(source_id, line);
`;
