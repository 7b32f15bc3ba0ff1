-- A page of the string keys or lists of some bins, with their sizes, so that
-- a Scan reads their values in bounded reads (redis-scan.ts) with one call for
-- the sizes instead of one per key: SSCAN from each cursor given, then each
-- string key's stored length or each list's byte count (lb:). Paged, so that
-- one call holds Redis a few milliseconds however large the bin: one call for
-- a whole bin of a million keys held it three and a half seconds.
--
-- ARGV[1] key prefix, ARGV[2] about how many keys per page (SSCAN's COUNT),
-- then for each set: the bin's tag ("<byte length>:<bin>"), 'ka:' (string
-- keys) or 'la:' (lists), and the cursor to go on from ('0' to start).
-- Returns, for each set: { next cursor ('0' once done), key, bytes, key, bytes, ... }.
local prefix, count = ARGV[1], ARGV[2]
local result = {}
for i = 3, #ARGV, 3 do
  local tag, index, cursor = ARGV[i], ARGV[i + 1], ARGV[i + 2]
  local page = redis.call('SSCAN', prefix .. index .. tag, cursor, 'COUNT', count)
  local sized = { page[1] }
  for _, key in ipairs(page[2]) do
    sized[#sized + 1] = key
    if index == 'ka:' then
      sized[#sized + 1] = redis.call('STRLEN', prefix .. 's:' .. tag .. key)
    else
      sized[#sized + 1] = tonumber(redis.call('GET', prefix .. 'lb:' .. tag .. key) or '0')
    end
  end
  result[#result + 1] = sized
end
return result
