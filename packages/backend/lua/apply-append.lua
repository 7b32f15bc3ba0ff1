-- Applies one "append" entry. Live appends are members of a ZSET whose
-- members start with the 40-byte stamp, so ZRANGE returns them in stamp order.
-- KEYS[1] l:<bin><key>   ZSET of live appends: stamp .. value, all scored 0
-- KEYS[2] lt:<bin><key>  HASH value -> stamp of the latest remove of that value (tombstone)
-- KEYS[3] lk:<bin>       keys of the bin's non-empty lists
-- KEYS[4] la:<bin>       every list key of the bin with an entry, tombstones included
-- KEYS[5] bins           ZSET of bin names scored by ring point
-- KEYS[6] n:lists        count of non-empty lists
-- ARGV[1] encoded stamp, ARGV[2] value, ARGV[3] key, ARGV[4] ring point, ARGV[5] bin
-- Returns 1 when added, 0 when already there or removed by a later remove.
local tombstone = redis.call('HGET', KEYS[2], ARGV[2])
if tombstone and tombstone > ARGV[1] then
  return 0
end
local added = redis.call('ZADD', KEYS[1], 0, ARGV[1] .. ARGV[2])
if added == 1 then
  redis.call('INCRBY', KEYS[6], redis.call('SADD', KEYS[3], ARGV[3]))
  redis.call('SADD', KEYS[4], ARGV[3])
  redis.call('ZADD', KEYS[5], ARGV[4], ARGV[5])
end
return added
