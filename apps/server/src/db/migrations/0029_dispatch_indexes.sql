-- Dispatch's choice at 100,000 AEDs and 20,000 responders (modules/dispatch; npm run
-- bench:dispatch, figures in docs/benchmarks.md).
--
-- The candidates are the responders living near the call (accounts_earth_idx, 0028) and those whose
-- shared position is under 30 minutes old near it. The second half read every responder (a
-- sequential scan of 20,000 rows: 3-7 ms of a choice's 8 on PostgreSQL, 18-20 ms on PGlite under
-- load) to find the few near the call. Their positions by distance, as the homes are: the walk
-- nearest first passes over old positions (the time is checked on the way) and stops at the wave's
-- count. Only responders who ever shared a position are in it.
CREATE INDEX responders_position_idx ON responders USING gist (ll_to_earth(last_lat, last_lon))
  WHERE located_at IS NOT NULL;
