-- Applies one "set" entry: the entry with the greatest stamp holds the value,
-- so only it is kept (an overwritten key stays one Redis string).
-- KEYS[1] s:<bin><key>   the stored entry: stamp (40 bytes) .. value
-- KEYS[2] k:<bin>        keys of the bin with a non-empty value
-- KEYS[3] ka:<bin>       every string key of the bin with an entry, deletions included
-- KEYS[4] bins           ZSET of bin names scored by ring point
-- KEYS[5] n:keys         count of non-empty string keys
-- ARGV[1] encoded stamp, ARGV[2] value ("" deletes), ARGV[3] key, ARGV[4] ring point, ARGV[5] bin
-- Returns 1 when the entry became the value, 0 when an equal or newer entry was there.
local current = redis.call('GET', KEYS[1])
if current and string.sub(current, 1, 40) >= ARGV[1] then
  return 0
end
redis.call('SET', KEYS[1], ARGV[1] .. ARGV[2])
if ARGV[2] == '' then
  redis.call('DECRBY', KEYS[5], redis.call('SREM', KEYS[2], ARGV[3]))
else
  redis.call('INCRBY', KEYS[5], redis.call('SADD', KEYS[2], ARGV[3]))
end
if not current then
  redis.call('SADD', KEYS[3], ARGV[3])
  redis.call('ZADD', KEYS[4], ARGV[4], ARGV[5])
end
return 1
