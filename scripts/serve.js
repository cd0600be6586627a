#!/usr/bin/env node
// Static file server for dist/ (the built page), with no dependencies beyond node itself.
//   node scripts/serve.js            port $PORT, else the first free port from 8080;
//                                    host $HOST, else 127.0.0.1 (loopback only);
//                                    directory $WOLAB_DIST, else dist/
//   const { start } = require('./scripts/serve.js');
//   const { url, close } = await start({ root, port, host });
// The page fetches wolab.wasm itself, so .wasm must be served as application/wasm for
// WebAssembly.instantiateStreaming to accept it. Text, wasm and W_o snapshot files go gzipped to
// a client that accepts it (the recordings are mostly JSON numbers, the module mostly code):
// compressed once per file version and kept.
'use strict';

const fs = require('fs');
const http = require('http');
const path = require('path');
const zlib = require('zlib');

const DIST = path.resolve(__dirname, '..', 'dist');
const FIRST_PORT = 8080;
const PORTS_TRIED = 100;

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.safetensors': 'application/octet-stream',
};

const COMPRESSED = new Set(['.html', '.js', '.mjs', '.json', '.map', '.css', '.wasm', '.svg', '.txt', '.safetensors']);

// file -> { mtimeMs, size, body }: each file's gzipped bytes, for as long as it is unchanged.
const gzipCache = new Map();

function gzipped(file, st, done) {
  const hit = gzipCache.get(file);
  if (hit && hit.mtimeMs === st.mtimeMs && hit.size === st.size) return done(null, hit.body);
  fs.readFile(file, (err, bytes) => {
    if (err) return done(err);
    zlib.gzip(bytes, (err2, body) => {
      if (err2) return done(err2);
      gzipCache.set(file, { mtimeMs: st.mtimeMs, size: st.size, body });
      done(null, body);
    });
  });
}

// Whether the request's Accept-Encoding takes gzip (and does not refuse it with q=0).
function acceptsGzip(req) {
  return String(req.headers['accept-encoding'] || '').split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';').map((x) => x.trim());
    return (coding === 'gzip' || coding === '*') && !params.some((p) => /^q=0(\.0*)?$/.test(p));
  });
}

// The file under `root` that `urlPath` names, or null when the path is malformed or would
// leave root (../, encoded %2e%2e, absolute paths, NUL bytes).
function resolveInside(root, urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath.split('?')[0].split('#')[0]);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.split(/[\\/]/).includes('..')) return null;
  const file = path.join(root, decoded);
  if (file !== root && !file.startsWith(root + path.sep)) return null;
  return file;
}

function send(res, status, text) {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
  res.end(text + '\n');
}

function handle(root, req, res) {
  if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'method not allowed');
  let file = resolveInside(root, req.url);
  if (file === null) return send(res, 403, 'forbidden');
  fs.stat(file, (err, st) => {
    if (!err && st.isDirectory()) {
      file = path.join(file, 'index.html');
      return fs.stat(file, (err2, st2) => serveFile(req, res, file, err2 ? null : st2));
    }
    serveFile(req, res, file, err ? null : st);
  });
}

function serveFile(req, res, file, st) {
  if (!st || !st.isFile()) return send(res, 404, 'not found');
  const ext = path.extname(file).toLowerCase();
  // A rebuilt dist/ must show up on reload, not a cached wasm from the last build: the browser
  // asks each time (no-cache), and an unchanged file answers 304 (its ETag: size and mtime), so
  // that the workers' copies of the module cost a few bytes each.
  const etag = `W/"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"`;
  const cache = { 'Cache-Control': 'no-cache', ETag: etag, ...(COMPRESSED.has(ext) ? { Vary: 'Accept-Encoding' } : {}) };
  if (String(req.headers['if-none-match'] || '').split(',').some((tag) => tag.trim() === etag)) {
    res.writeHead(304, cache);
    return res.end();
  }
  const headers = {
    'Content-Type': MIME[ext] || 'application/octet-stream',
    'Content-Length': st.size,
    ...cache,
    'X-Content-Type-Options': 'nosniff',
  };
  if (COMPRESSED.has(ext)) {
    if (acceptsGzip(req)) {
      return gzipped(file, st, (err, body) => {
        if (err) return send(res, 500, 'cannot read file');
        res.writeHead(200, { ...headers, 'Content-Encoding': 'gzip', 'Content-Length': body.length });
        res.end(req.method === 'HEAD' ? undefined : body);
      });
    }
  }
  res.writeHead(200, headers);
  if (req.method === 'HEAD') return res.end();
  fs.createReadStream(file)
    .on('error', () => res.destroy())
    .pipe(res);
}

function listen(server, port, host) {
  return new Promise((resolve, reject) => {
    const onError = (err) => {
      server.off('listening', onListening);
      reject(err);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

// Serves `root`. An explicit port is used as given (an error if busy); without one, the
// first free port from 8080. Resolves to { url, port, close() }.
async function start({ root = DIST, port, host = '127.0.0.1' } = {}) {
  root = path.resolve(root);
  if (!fs.existsSync(path.join(root, 'index.html'))) {
    throw new Error(`${root}/index.html not found: build the page first (npm run build)`);
  }
  const server = http.createServer((req, res) => handle(root, req, res));
  const candidates = port !== undefined
    ? [port]
    : Array.from({ length: PORTS_TRIED }, (_, i) => FIRST_PORT + i);
  for (const p of candidates) {
    try {
      await listen(server, p, host);
      const bound = server.address().port;
      const shownHost = host.includes(':') ? `[${host}]` : host;
      return {
        url: `http://${shownHost}:${bound}/`,
        port: bound,
        close: () => new Promise((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
      };
    } catch (err) {
      if (err.code !== 'EADDRINUSE' || port !== undefined) throw err;
    }
  }
  throw new Error(`no free port in ${FIRST_PORT}..${FIRST_PORT + PORTS_TRIED - 1}; set PORT`);
}

module.exports = { start, resolveInside, acceptsGzip, MIME };

if (require.main === module) {
  const port = process.env.PORT ? Number(process.env.PORT) : undefined;
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port < 65536)) {
    console.error(`PORT: "${process.env.PORT}" is not a port number; use 0..65535`);
    process.exit(1);
  }
  start({ root: process.env.WOLAB_DIST || DIST, port, host: process.env.HOST || '127.0.0.1' }).then(
    ({ url, close }) => {
      console.log(`W_o Lab: ${url}`);
      const stop = () => close().then(() => process.exit(0));
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    },
    (err) => {
      console.error(`serve: ${err.message}`);
      process.exit(1);
    },
  );
}
