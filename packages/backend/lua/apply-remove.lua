-- Applies one "remove" entry: deletes every append of the value with a smaller
-- stamp and keeps the remove as the value's tombstone, so an older append that
-- arrives later (a retry, a repair copy, a stale replica) stays removed.
-- The count is decided once, when this store first applies the entry, and kept
-- for retries (HAZARDS.md 7).
-- KEYS[1] l:<bin><key>   ZSET of live appends
-- KEYS[2] lt:<bin><key>  HASH value -> stamp of the latest remove
-- KEYS[3] lk:<bin>       keys of the bin's non-empty lists
-- KEYS[4] la:<bin>       every list key of the bin with an entry
-- KEYS[5] bins           ZSET of bin names scored by ring point
-- KEYS[6] n:lists        count of non-empty lists
-- KEYS[7] rr:<stamp>     removed count of this entry, kept for ARGV[6] seconds
-- ARGV[1] encoded stamp, ARGV[2] value, ARGV[3] key, ARGV[4] ring point, ARGV[5] bin, ARGV[6] ttl seconds
-- Returns the number of occurrences this entry removed.
local tombstone = redis.call('HGET', KEYS[2], ARGV[2])
if tombstone and tombstone >= ARGV[1] then
  return tonumber(redis.call('GET', KEYS[7]) or '0')
end
redis.call('HSET', KEYS[2], ARGV[2], ARGV[1])
local removed = 0
for _, member in ipairs(redis.call('ZRANGEBYLEX', KEYS[1], '-', '(' .. ARGV[1])) do
  if string.sub(member, 41) == ARGV[2] then
    redis.call('ZREM', KEYS[1], member)
    removed = removed + 1
  end
end
if removed > 0 and redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('DECRBY', KEYS[6], redis.call('SREM', KEYS[3], ARGV[3]))
end
redis.call('SET', KEYS[7], removed, 'EX', ARGV[6])
redis.call('SADD', KEYS[4], ARGV[3])
redis.call('ZADD', KEYS[5], ARGV[4], ARGV[5])
return removed
