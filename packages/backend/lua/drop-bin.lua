-- Deletes everything one bin holds: its string entries, lists, their value
-- indexes and byte counts, and list tombstones, its key indexes and its place in the bin index, and takes its
-- live keys and lists off the store's counts. One script, so an entry applied
-- concurrently lands either before (and goes) or after (and is indexed anew):
-- never an entry left behind with no index to find it by.
--
-- ARGV[1] key prefix, ARGV[2] the bin's name, ARGV[3] its tag ("<byte length>:<bin>").
-- Returns the number of Redis keys deleted.
local prefix, bin, tag = ARGV[1], ARGV[2], ARGV[3]
local deleted = 0

local function delete(key)
  deleted = deleted + redis.call('DEL', key)
end

for _, key in ipairs(redis.call('SMEMBERS', prefix .. 'ka:' .. tag)) do
  delete(prefix .. 's:' .. tag .. key)
end
for _, key in ipairs(redis.call('SMEMBERS', prefix .. 'la:' .. tag)) do
  delete(prefix .. 'l:' .. tag .. key)
  delete(prefix .. 'lt:' .. tag .. key)
  delete(prefix .. 'lv:' .. tag .. key)
  delete(prefix .. 'lb:' .. tag .. key)
end
redis.call('DECRBY', prefix .. 'n:keys', redis.call('SCARD', prefix .. 'k:' .. tag))
redis.call('DECRBY', prefix .. 'n:lists', redis.call('SCARD', prefix .. 'lk:' .. tag))
for _, index in ipairs({ 'k:', 'ka:', 'lk:', 'la:' }) do
  delete(prefix .. index .. tag)
end
redis.call('ZREM', prefix .. 'bins', bin)
return deleted
