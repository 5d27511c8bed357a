-- Public review's lists at 50,000 submissions (bench:review): a volunteers tab filtered by name
-- is counted and its page's ids chosen from the tab index alone (an index-only walk), so the
-- index carries the name. The trigram index cannot serve one or two Chinese characters (a
-- surname, 张伟), the usual search.
DROP INDEX volunteers_tab_idx;
CREATE INDEX volunteers_tab_idx ON volunteers (audit_status, id DESC) INCLUDE (submitter_name);
