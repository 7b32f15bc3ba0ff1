-- The string keys and lists of some bins with their sizes, so that a Scan
-- reads their values in bounded reads (redis-scan.ts) with one call for the
-- sizes instead of one per key: per bin, its string keys with the length of
-- each stored entry, and its lists with each one's byte count (lb:).
--
-- ARGV[1] key prefix, ARGV[2..] the bins' tags ("<byte length>:<bin>").
-- Returns, per bin, two flat arrays: { string key, bytes, ... }, { list key, bytes, ... }.
local prefix = ARGV[1]
local result = {}
for i = 2, #ARGV do
  local tag = ARGV[i]
  local strings = {}
  for _, key in ipairs(redis.call('SMEMBERS', prefix .. 'ka:' .. tag)) do
    strings[#strings + 1] = key
    strings[#strings + 1] = redis.call('STRLEN', prefix .. 's:' .. tag .. key)
  end
  local lists = {}
  for _, key in ipairs(redis.call('SMEMBERS', prefix .. 'la:' .. tag)) do
    lists[#lists + 1] = key
    lists[#lists + 1] = tonumber(redis.call('GET', prefix .. 'lb:' .. tag .. key) or '0')
  end
  result[#result + 1] = strings
  result[#result + 1] = lists
end
return result
