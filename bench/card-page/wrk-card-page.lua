-- wrk script for bench/card-page. Arguments after `--`: mode, file of card link tokens (one per line).
-- page: GET /c/{token} of a random live link; wrong: GET /c/{token} of a token no link has (the 404 a guesser gets);
-- health: GET /api/health. done() prints the p95, which wrk's own --latency table leaves out.
local mode, tokens

function init(args)
  mode = args[1]
  tokens = {}
  if mode == "page" then
    for line in io.lines(args[2]) do
      if line ~= "" then tokens[#tokens + 1] = line end
    end
  end
  math.randomseed(os.time() * 1000 + (tonumber(string.match(tostring({}), "0x(%x+)"), 16) or 0) % 100000)
end

local alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

local function wrongToken()
  local out = {}
  for i = 1, 43 do
    local k = math.random(62)
    out[i] = string.sub(alphabet, k, k)
  end
  return table.concat(out)
end

function request()
  if mode == "health" then return wrk.format("GET", "/api/health") end
  if mode == "wrong" then return wrk.format("GET", "/c/" .. wrongToken()) end
  return wrk.format("GET", "/c/" .. tokens[math.random(#tokens)])
end

function done(summary, latency, requests)
  io.write(string.format("p95_us %d\n", latency:percentile(95)))
  io.write(string.format("p50_us %d\n", latency:percentile(50)))
end
