// Preloaded (`node --require`) into a third-party client the tests run as a child process: every HTTP
// request of its fetch goes out from the next of SOURCE_ADDRESSES loopback addresses ("<first>:<count>",
// the indexes of loopbackAddress in source-addresses.ts), so per-address limits stay at their defaults.
const dns = require('node:dns');
const { Agent, Dispatcher, setGlobalDispatcher } = require('undici');

const [first = 0, count = 1] = (process.env.SOURCE_ADDRESSES ?? '').split(':').map(Number);
const address = (index) => `127.1.${Math.floor(index / 250)}.${(index % 250) + 1}`;
const lookup = (hostname, options, callback) => dns.lookup(hostname, { ...options, family: 4 }, callback);

class RotatingDispatcher extends Dispatcher {
  constructor(agents) {
    super();
    this.agents = agents;
    this.turn = 0;
  }
  dispatch(options, handler) {
    return this.agents[this.turn++ % this.agents.length].dispatch(options, handler);
  }
  close() {
    return Promise.all(this.agents.map((a) => a.close()));
  }
  destroy() {
    return Promise.all(this.agents.map((a) => a.destroy()));
  }
}

if (process.env.SOURCE_ADDRESSES)
  setGlobalDispatcher(
    new RotatingDispatcher(
      Array.from({ length: count }, (_, i) => new Agent({ localAddress: address(first + i), connect: { lookup } })),
    ),
  );
