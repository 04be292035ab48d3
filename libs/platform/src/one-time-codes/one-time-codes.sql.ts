/**
 * The statements of OneTimeCodeService, on the two tables every service that sends codes creates in
 * its schema with ONE_TIME_CODE_TABLES (one_time_codes, one_time_code_limits).
 */

/** A new code (its HMAC only). */
export const INSERT_CODE_SQL = `
  INSERT INTO one_time_codes (id, purpose, reference, subject, code_hash, attempts, max_attempts, expires_at, created_at)
  VALUES ($1, $2, $3, $4, $5, 0, $6, now() + make_interval(secs => $7), now())`;

/** The reference's latest code (a new code replaces the earlier ones of the same reference). */
export const LATEST_CODE_SQL = `
  SELECT id, subject, attempts, max_attempts, consumed_at, expires_at <= now() AS expired
    FROM one_time_codes
   WHERE purpose = $1 AND reference = $2
   ORDER BY created_at DESC, id DESC
   LIMIT 1`;

/**
 * Takes one of the code's attempts before the code is compared: concurrent guesses queue on the
 * row, each sees the count the one before left, and no more than max_attempts ever get a row back.
 */
export const TAKE_CODE_ATTEMPT_SQL = `
  UPDATE one_time_codes SET attempts = attempts + 1
   WHERE id = $1 AND consumed_at IS NULL AND expires_at > now() AND attempts < max_attempts
  RETURNING code_hash, attempts, max_attempts`;

/** Uses the code up (one of two right guesses at once wins). */
export const CONSUME_CODE_SQL = `
  UPDATE one_time_codes SET consumed_at = now() WHERE id = $1 AND consumed_at IS NULL RETURNING id`;

/**
 * Counts one more event (an attempt, a code sent) against a limit's key, in its window: a window
 * that is over, or a lockout that ended, starts a new window at 1. During a lockout nothing is
 * counted. The caller is allowed when the row answers no lockout and a count within its maximum;
 * concurrent takers queue on the row, so no more than the maximum are ever allowed in a window.
 * A key idle for a day forgets its earlier lockouts (strikes).
 */
export const TAKE_LIMIT_SQL = `
  INSERT INTO one_time_code_limits AS l (key, count, window_started_at, strikes, locked_until, updated_at)
  VALUES ($1, 1, now(), 0, NULL, now())
  ON CONFLICT (key) DO UPDATE SET
    count = CASE
      WHEN l.locked_until > now() THEN l.count
      WHEN l.locked_until IS NOT NULL OR l.window_started_at <= now() - make_interval(secs => $2) THEN 1
      ELSE l.count + 1 END,
    window_started_at = CASE
      WHEN l.locked_until > now() THEN l.window_started_at
      WHEN l.locked_until IS NOT NULL OR l.window_started_at <= now() - make_interval(secs => $2) THEN now()
      ELSE l.window_started_at END,
    locked_until = CASE WHEN l.locked_until > now() THEN l.locked_until END,
    strikes = CASE WHEN l.updated_at <= now() - interval '1 day' THEN 0 ELSE l.strikes END,
    updated_at = now()
  RETURNING count, CEIL(EXTRACT(EPOCH FROM (l.locked_until - now())))::int AS locked_for`;

/** Gives back an event counted for nothing (the code could not be tried). */
export const REFUND_LIMIT_SQL = `
  UPDATE one_time_code_limits SET count = GREATEST(0, count - 1) WHERE key = $1 AND locked_until IS NULL`;

/**
 * Starts a lockout of the key: the first lasts $2 seconds, each next one (strikes) twice the one
 * before, at most $3. A key already locked keeps its lockout. Answers the seconds left.
 */
export const LOCK_LIMIT_SQL = `
  WITH locked AS (
    UPDATE one_time_code_limits
       SET locked_until = now() + make_interval(secs => LEAST($3::float8, $2::float8 * power(2, strikes))),
           strikes = strikes + 1, updated_at = now()
     WHERE key = $1 AND (locked_until IS NULL OR locked_until <= now())
    RETURNING locked_until)
  SELECT CEIL(EXTRACT(EPOCH FROM (COALESCE((SELECT locked_until FROM locked),
           (SELECT locked_until FROM one_time_code_limits WHERE key = $1)) - now())))::int AS locked_for`;

/** The seconds left of the key's lockout (null: none). */
export const LOCKED_FOR_SQL = `
  SELECT CEIL(EXTRACT(EPOCH FROM (locked_until - now())))::int AS locked_for
    FROM one_time_code_limits WHERE key = $1 AND locked_until > now()`;

/** A right code: the person's wrong guesses and lockouts are forgotten. */
export const CLEAR_LIMIT_SQL = `DELETE FROM one_time_code_limits WHERE key = $1`;

/** Codes a day past their expiry and limits idle for a day. */
export const PURGE_CODES_SQL = `DELETE FROM one_time_codes WHERE expires_at < now() - interval '1 day'`;
export const PURGE_LIMITS_SQL = `
  DELETE FROM one_time_code_limits
   WHERE updated_at < now() - interval '1 day' AND (locked_until IS NULL OR locked_until < now())`;
