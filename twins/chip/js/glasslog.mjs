// The web page's glass decoder (glass.mjs) on a bus log: node glasslog.mjs FILE, where FILE
// is {"width", "height", "address", "writes": [[address, hex], ...]}; prints, as JSON, the
// glass after each write (glass.mjs's frame, 8 pixels a byte from the left, as hex), or,
// for a log that is not that, one line on stderr and exit 2 (tests/twins/chip/test_web_glass.py).
import fs from 'node:fs';
import { SSD1306 } from './glass.mjs';

let log;
try {
  log = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
  if (!Array.isArray(log.writes)) throw new Error('no "writes" list');
} catch (e) {
  process.stderr.write('glasslog.mjs: ' + process.argv[2] + ': ' + e.message + '\n');
  process.exit(2);
}
const oled = new SSD1306(log.width, log.height, log.address);
const frame = new Uint8Array(log.width * log.height), packed = new Uint8Array(frame.length >> 3);
const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const frames = [];
for (const [address, data] of log.writes) {
  if (address === log.address) oled.write((data.match(/../g) || []).map((h) => parseInt(h, 16)));
  oled.frame(frame);
  packed.fill(0);
  frame.forEach((v, i) => { packed[i >> 3] |= v << (7 - (i & 7)); });
  frames.push(hex(packed));
}
process.stdout.write(JSON.stringify(frames) + '\n');
