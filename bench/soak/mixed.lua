-- wrk script for the soak: a weighted mix of requests over every puzzle (JSON and contest text,
-- small and medium instances) with hostile ones mixed in. Each request carries its kind in
-- X-Request-Id ("<puzzle>.<what>.<expected status>"); the server's access log echoes it, so
-- bench/soak/report.py can group latencies by puzzle and count answers that were not the
-- expected status. The oversize body is sized against the server's --max-body, which
-- soak.sh sets to SOAK_MAX_BODY (262144) and passes here as the first script argument.

local max_body = 262144
local kinds = {}

local function add(weight, kind, path, ctype, body)
  local headers = {["X-Request-Id"] = kind}
  if ctype then headers["Content-Type"] = ctype end
  local req = wrk.format("POST", path, headers, body)
  for _ = 1, weight do kinds[#kinds + 1] = req end
end

local function json(weight, puzzle, what, status, body)
  add(weight, puzzle .. "." .. what .. "." .. status, "/solve/" .. puzzle, "application/json", body)
end

local function text(weight, puzzle, what, status, body)
  add(weight, puzzle .. "." .. what .. "." .. status, "/solve/" .. puzzle, "text/plain", body)
end

-- A random 0/1 n x n nine instance with a + b = 1 on every cell: always solvable.
local function nine_instance(n, seed)
  math.randomseed(seed)
  local a, b = {}, {}
  for i = 1, n do
    local ra, rb = {}, {}
    for j = 1, n do
      local v = math.random(0, 1)
      ra[j], rb[j] = tostring(v), tostring(1 - v)
    end
    a[i], b[i] = table.concat(ra), table.concat(rb)
  end
  return a, b
end

-- A w x h Rubik's Rectangle board scrambled by k random row/column flips of the sorted one.
local function rubiks_board(w, h, k, seed)
  math.randomseed(seed)
  local g = {}
  for i = 1, h do
    g[i] = {}
    for j = 1, w do g[i][j] = (i - 1) * w + j end
  end
  for _ = 1, k do
    if math.random(0, 1) == 0 then
      local r = math.random(1, h)
      local row = g[r]
      for j = 1, math.floor(w / 2) do row[j], row[w + 1 - j] = row[w + 1 - j], row[j] end
      local o = h + 1 - r
      g[r], g[o] = g[o], g[r]
    else
      local c = math.random(1, w)
      local o = w + 1 - c
      for i = 1, math.floor(h / 2) do
        g[i][c], g[h + 1 - i][o] = g[h + 1 - i][o], g[i][c]
      end
      if c ~= o then
        for i = 1, math.floor(h / 2) do
          g[i][o], g[h + 1 - i][c] = g[h + 1 - i][c], g[i][o]
        end
      end
      if h % 2 == 1 then
        local m = (h + 1) / 2
        g[m][c], g[m][o] = g[m][o], g[m][c]
      end
    end
  end
  local rows = {}
  for i = 1, h do rows[i] = "[" .. table.concat(g[i], ",") .. "]" end
  return '{"board":[' .. table.concat(rows, ",") .. "]}"
end

local maze7 = {"#####################", "###O11###...###M13###", "###......O22......###",
               "###...######M22######", "###BBB###M31###M11###", "###...O32...M33O31###",
               "#####################"}

function init(args)
  if args[1] then max_body = tonumber(args[1]) end

  -- nine
  json(6, "nine", "sample", 200, '{"a":["100","000","000"],"b":["111","111","011"]}')
  text(4, "nine", "sample-text", 200, "100\n000\n000\n111\n111\n011\n")
  local a, b = nine_instance(6, 6)
  json(2, "nine", "6x6", 200, '{"a":["' .. table.concat(a, '","') .. '"],"b":["' ..
       table.concat(b, '","') .. '"]}')
  -- rubiks-rectangle
  json(6, "rubiks-rectangle", "example", 200, '{"board":[[1,2,3],[4,5,6],[9,8,7]]}')
  text(3, "rubiks-rectangle", "text-3", 200,
       "3\n\n3 3\n1 2 3\n6 5 4\n7 8 9\n\n4 2\n1 2 3 4\n5 6 7 8\n\n2 2\n4 3\n2 1\n")
  json(2, "rubiks-rectangle", "30x30", 200, rubiks_board(30, 30, 200, 30))
  -- invariant-boards
  json(6, "invariant-boards", "n4-boards", 200, '{"n":4,"boards":true}')
  text(3, "invariant-boards", "n1983-text", 200, "1983\n")
  json(2, "invariant-boards", "n19", 200, '{"n":19}')
  -- mayan
  json(5, "mayan", "example", 200, '{"moves":3,"columns":[[1],[2,1],[2,3,4],[3,1],[2,4,3,4]]}')
  text(3, "mayan", "sample-text", 200, "3\n1 0\n2 1 0\n2 3 4 0\n3 1 0\n2 4 3 4 0\n")
  -- maze-tac-toe
  json(5, "maze-tac-toe", "sample", 200, '{"maze":["' .. table.concat(maze7, '","') ..
       '"],"boards":true}')
  text(3, "maze-tac-toe", "sample-text", 200, "7\n" .. table.concat(maze7, "\n") .. "\n")

  -- hostile: the contract's error, never a crash, a hang or lasting memory
  json(2, "nine", "malformed-json", 400, '{"a":["100","000",')
  json(2, "invariant-boards", "wrong-type", 400, '{"n":"4"}')
  json(1, "mayan", "not-an-object", 400, "[1,2,3]")
  json(1, "nine", "deep-nesting", 400, string.rep("[", 5000) .. string.rep("]", 5000))
  add(2, "unknown.puzzle.404", "/solve/sudoku", "application/json", '{"grid":[]}')
  add(1, "nine.no-content-type.415", "/solve/nine", nil, '{"a":["1"],"b":["0"]}')
  add(1, "nine.wrong-media-type.415", "/solve/nine", "application/xml", "<a/>")
  text(1, "invariant-boards", "invalid-utf8", 400, "\255\n")
  text(1, "rubiks-rectangle", "out-of-range", 422, "1\n\n2 1\n99999999999999999999 1\n")
  json(1, "nine", "oversize", 413, '{"a":["' .. string.rep("0", max_body) .. '"]}')
  -- within the body limit, but wide: many small JSON values / many text instances
  json(1, "nine", "wide-json", 400, '{"a":[' .. string.rep("{},", (max_body - 16) / 3) .. "{}]}")
  local n = math.floor((max_body - 16) / 10)
  text(1, "rubiks-rectangle", "many-instances", 200, n .. "\n" .. string.rep("\n2 1\n2 1\n", n))
end

local counter = 0

function request()
  counter = counter + 1
  return kinds[(counter * 7919) % #kinds + 1]
end
