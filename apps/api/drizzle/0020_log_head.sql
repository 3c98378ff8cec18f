-- The log's lock and its head in one round trip (ADR 068): a batch's hold of the shared lock is one round trip
-- shorter. A VOLATILE plpgsql function's statements each take a fresh snapshot, so the head read after the lock
-- sees every append committed before it was granted (a plain statement's snapshot predates the wait).
CREATE FUNCTION guildhall_log_head(lock_key bigint)
RETURNS TABLE(seq bigint, hash text, waited_ms double precision)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  asked timestamptz := clock_timestamp();
BEGIN
  PERFORM pg_advisory_xact_lock(lock_key);
  waited_ms := extract(epoch from clock_timestamp() - asked) * 1000;
  SELECT g.seq, g.hash INTO seq, hash FROM governance_log g ORDER BY g.seq DESC LIMIT 1;
  RETURN NEXT;
END
$$;
