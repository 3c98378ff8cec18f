-- The optimistic append of a vote batch (ADR 073): the log's lock taken inside the batch's last query, which also
-- inserts the entries hashed in Node from the head this process remembered, and commits. When the head is no longer
-- the one expected (another instance appended since), it raises SQLSTATE GHL01 with the current head as DETAIL
-- (JSON: seq, hash, waited_ms); the caller rolls back to its savepoint, which lets the lock go, and hashes again.
-- A VOLATILE plpgsql function's statements each take a fresh snapshot: the head read after the lock sees every
-- append committed before it was granted (as migration 0020's guildhall_log_head).
CREATE FUNCTION guildhall_log_expect_head(lock_key bigint, expected_seq bigint, expected_hash text)
RETURNS double precision
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  asked timestamptz := clock_timestamp();
  waited double precision;
  head_seq bigint;
  head_hash text;
BEGIN
  PERFORM pg_advisory_xact_lock(lock_key);
  waited := extract(epoch from clock_timestamp() - asked) * 1000;
  SELECT g.seq, g.hash INTO head_seq, head_hash FROM governance_log g ORDER BY g.seq DESC LIMIT 1;
  IF coalesce(head_seq, 0) <> expected_seq OR (head_seq IS NOT NULL AND head_hash <> expected_hash) THEN
    RAISE EXCEPTION USING ERRCODE = 'GHL01', MESSAGE = 'the log head is not the one expected',
      DETAIL = json_build_object('seq', coalesce(head_seq, 0), 'hash', head_hash, 'waited_ms', waited)::text;
  END IF;
  RETURN waited;
END
$$;
