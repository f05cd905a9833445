// Writes the DuckDB Parquet fixtures of the readers' tests: one table of
// 300 rows and 27 columns (every DuckDB type with a Parquet logical type:
// integers, floats, timestamps of each unit with and without time zone,
// date, time, decimals, UUID, list, struct, map, blob, JSON), every column
// a formula of the row number i (readers' duckdbRow computes the same
// values independently), in three files:
//
//   duckdb_v2.parquet      PARQUET_VERSION V2 (DELTA_BINARY_PACKED,
//                          DELTA_LENGTH_BYTE_ARRAY, BYTE_STREAM_SPLIT and
//                          RLE_DICTIONARY pages, data pages of version 2), Snappy
//   duckdb_lz4raw.parquet  version 1 pages, LZ4_RAW
//   duckdb_zstd_v2.parquet PARQUET_VERSION V2, ZSTD
//
// Usage: RISKBATCH_NODE_MODULES=/path/to/node_modules node gen_duckdb_parquet.mjs [DIR]
// (DIR defaults to this script's folder; `npm install @duckdb/node-api`
// makes the node_modules).
import { createRequire } from 'module'
import { dirname, join } from 'path'
import { fileURLToPath } from 'url'

const require = createRequire(process.env.RISKBATCH_NODE_MODULES + '/')
const { DuckDBInstance } = require('@duckdb/node-api')
const dir = process.argv[2] || dirname(fileURLToPath(import.meta.url))
const con = await (await DuckDBInstance.create(':memory:')).connect()
await con.run(`SET TimeZone = 'UTC'`)
await con.run(`CREATE TABLE t AS SELECT
  i AS id,
  CASE WHEN i % 7 = 3 THEN NULL ELSE i / 8 END::DOUBLE AS epsilon,
  (i * 0.25)::FLOAT AS f,
  i::BIGINT * 1000003 AS n,
  CASE WHEN i = 0 THEN 18446744073709551615::UBIGINT ELSE i::UBIGINT END AS u,
  (i * 65537)::UINTEGER AS ui,
  (i % 100 - 50)::TINYINT AS small,
  i % 2 = 0 AS flag,
  CASE WHEN i % 5 = 4 THEN NULL ELSE 'name ' || i END AS name,
  ['low', 'mid', 'high'][i % 3 + 1] AS level,
  make_timestamp(1709294400000000 + i::BIGINT * 1001001) AS ts,
  to_timestamp(1709294400 + i * 60) AS tstz,
  make_timestamp(1709294400000000 + i::BIGINT * 7000)::TIMESTAMP_MS AS ts_ms,
  make_timestamp_ns(1709294400000000000 + i::BIGINT * 123456789) AS ts_ns,
  make_timestamp(1709294400000000 + i::BIGINT * 3600000000)::TIMESTAMP_S AS ts_s,
  DATE '2024-03-01' + i AS d,
  TIME '08:30:00' + to_microseconds(i::BIGINT * 1000001) AS tod,
  ((i * 12345 - 1000000)::DECIMAL(18,0) * 0.0001)::DECIMAL(18,4) AS dec,
  ((CASE WHEN i % 2 = 1 THEN '-' ELSE '' END) || '123456789012345678.' || lpad(i::VARCHAR, 10, '0'))::DECIMAL(38,10) AS dec38,
  ((i % 100 - 50)::DECIMAL(4,0) * 0.01)::DECIMAL(4,2) AS dec_small,
  ('00000000-0000-4000-8000-' || lpad(printf('%x', i * 7919), 12, '0'))::UUID AS uid,
  CASE WHEN i % 6 = 5 THEN NULL ELSE list_transform(range(i % 4), x -> (x * i)::INTEGER) END AS tags,
  CASE WHEN i % 9 = 8 THEN NULL ELSE {'a': i, 'b': 'x' || i} END AS s,
  MAP {'k' || (i % 3): i} AS m,
  {'at': DATE '2024-03-01' + i, 'amount': ((i - 150)::DECIMAL(9,0) * 0.5)::DECIMAL(9,2), 'xs': [i / 4, -i]::DOUBLE[]} AS ev,
  from_hex(printf('%04x', i)) AS bin,
  CASE WHEN i % 4 = 3 THEN NULL ELSE json_object('i', i, 'tags', [i, -i]) END AS doc
FROM (SELECT range::INTEGER AS i FROM range(0, 300))`)
const q = (name) => join(dir, name).replaceAll("'", "''")
await con.run(`COPY t TO '${q('duckdb_v2.parquet')}' (FORMAT parquet, PARQUET_VERSION V2)`)
await con.run(`COPY t TO '${q('duckdb_lz4raw.parquet')}' (FORMAT parquet, COMPRESSION lz4_raw)`)
await con.run(`COPY t TO '${q('duckdb_zstd_v2.parquet')}' (FORMAT parquet, PARQUET_VERSION V2, COMPRESSION zstd)`)
