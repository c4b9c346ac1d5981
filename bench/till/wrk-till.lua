-- wrk script for bench/till. Arguments after `--`: file of "card_number location_id" lines, API key, with-location (yes|no).
-- Each connection is one till: it redeems 100 from the cards of its own branch, as a counter does; done() prints the p95.
local lines, headers, withLocation
local counter = 0

function init(args)
  lines = {}
  for line in io.lines(args[1]) do
    local card, location = string.match(line, "^(%d+) (%d+)$")
    if card then lines[#lines + 1] = { card = card, location = location } end
  end
  headers = { ["Authorization"] = "Bearer " .. args[2], ["Content-Type"] = "application/json" }
  withLocation = args[3] == "yes"
  math.randomseed(os.time() * 1000 + (tonumber(string.match(tostring({}), "0x(%x+)"), 16) or 0) % 100000)
end

function request()
  local pick = lines[math.random(#lines)]
  local body = withLocation and ('{"amount":100,"location_id":' .. pick.location .. '}') or '{"amount":100}'
  return wrk.format("POST", "/api/v1/card/" .. pick.card .. "/redemptions", headers, body)
end

function done(summary, latency)
  io.write(string.format("P95_US %d\nP50_US %d\nP99_US %d\n", latency:percentile(95), latency:percentile(50), latency:percentile(99)))
end
