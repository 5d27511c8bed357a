-- Live pushes take their id, and are announced, when their transaction commits (modules/live;
-- npm run bench:calls, figures in docs/benchmarks.md).
--
-- A push's id must follow commit order: a console that got push 8 takes an earlier-committed push
-- 7 for one it had, and a reconnect's `after` skips it. The writer used to take the push-order lock
-- (720303, 1) as it inserted the push and hold it until its commit: every round trip the rest of
-- the transaction made waited on the lock's other writers. At 50 calls a second beside 5,000 device
-- messages (each call's alarm and message, its dispatch's steps, the status pushes) the lock was
-- held most of the time: 9,661 waits of 101 ms on average in a minute, the pools filled with
-- waiters, and a call's alarm took 7-10 s (p50) to reach the consoles.
--
-- Now the insert takes a provisional id and no lock. A deferred trigger runs as the transaction
-- commits, after every statement of it: it takes the lock, gives each push of the transaction a
-- new id in the order they were inserted, and queues its NOTIFY on the live channel (the push
-- whole, or its id alone when that would not fit a NOTIFY's 8000 bytes). The lock is held only
-- for the commit itself. The webhook fan-out's lockPushOrder takes the same lock.
CREATE FUNCTION live_push_committing() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  final_id bigint;
  payload text;
BEGIN
  PERFORM pg_advisory_xact_lock(720303, 1);
  UPDATE live_pushes SET id = nextval('live_pushes_id_seq')
    WHERE id = NEW.id RETURNING id INTO final_id;
  -- Removed again by its own transaction: nothing to announce.
  IF final_id IS NULL THEN
    RETURN NULL;
  END IF;
  payload := json_build_object('id', final_id, 'data_type', NEW.data_type, 'agency_id', NEW.agency_id,
    'index_link', NEW.index_link, 'data', NEW.data, 'create_time', NEW.create_time)::text;
  IF octet_length(payload) > 7999 THEN
    payload := json_build_object('id', final_id)::text;
  END IF;
  PERFORM pg_notify('live_push', payload);
  RETURN NULL;
END
$$;
CREATE CONSTRAINT TRIGGER live_pushes_committing AFTER INSERT ON live_pushes
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION live_push_committing();
