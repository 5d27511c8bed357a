-- The emergency page's lists at 100,000 rescues and 50,000 calls (modules/rescue, modules/call;
-- npm run bench:call-lists, figures in docs/benchmarks.md).
--
-- The rescue list is the scope's rescues newest first (event_time DESC, id DESC), filtered by a
-- time window. rescue_events_scope_idx (index_link text_pattern_ops, event_time DESC) cannot give
-- that order once the scope is a prefix range, nor narrow by time within it: a page of the whole
-- network or of a general agent sorted every rescue of the scope (a top-N sort over 100,000 rows,
-- 24-32 ms on PostgreSQL), and a day's window read them all. Walking this index newest first stops
-- after the page's rows (the scope's condition checked on the way), and a window is a range of it.
CREATE INDEX rescue_events_time_idx ON rescue_events (event_time DESC, id DESC);

-- The rescue list's region is its installation's, removed or not, so the partial address indexes of
-- the live installations do not apply: the count of a province's rescues read the address of all
-- 100,300 installations (44 ms on PostgreSQL). A range of this index finds the region's ids alone.
CREATE INDEX installations_region_idx ON installations (address_code text_pattern_ops, id);

-- The call list's phone filter matches any part of the number (the last four digits, as a caller's
-- number is read out): LIKE '%…%' read every call (14 ms on PGlite at 50,000 for the page, as much
-- again for its count). Trigrams, as for the members' phones (0004).
CREATE INDEX call_events_phone_idx ON call_events USING gin (phone gin_trgm_ops);
