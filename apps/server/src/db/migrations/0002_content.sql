-- Content: the first-aid classroom (operation videos, knowledge base, news) of each organisation.

CREATE TABLE classrooms (
  id            bigserial PRIMARY KEY,
  -- Owner: the creator's organisation; members see the items of their subtree.
  agency_id     bigint NOT NULL REFERENCES agencies (id),
  title         varchar(20) NOT NULL,
  category      smallint NOT NULL CHECK (category IN (1, 2, 3)),
  describe      varchar(500) NOT NULL DEFAULT '',
  -- A video ID for category 1, else an http(s) URL.
  link          varchar(1000) NOT NULL,
  illustration  varchar(1000),
  content_type  smallint NOT NULL CHECK (content_type IN (1, 2, 3)),
  -- Rich text, sanitised before it is stored.
  content       text NOT NULL DEFAULT '',
  creator       bigint,
  create_time   timestamptz NOT NULL DEFAULT now(),
  update_time   timestamptz NOT NULL DEFAULT now()
);
-- The list is scoped by agency and sorted newest first; the category filter has its own path.
-- Title "contains" is a substring search that no btree serves; the per-agency index narrows it first.
CREATE INDEX classrooms_agency_time_idx ON classrooms (agency_id, create_time DESC, id DESC);
CREATE INDEX classrooms_category_time_idx ON classrooms (category, create_time DESC, id DESC);
