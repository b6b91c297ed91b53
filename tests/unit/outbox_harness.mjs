// Drives the page's real outbox (service/page/static/outbox.js) for tests/unit/test_outbox_laws.py, one JSON line
// per command on stdin and one JSON line per answer on stdout. The server is the test's: each send is written out
// as {"send": entry} and waits for {"answer": ...} on stdin. Storage is a Map that outlives each Outbox, as the
// page's localStorage outlives a reload.
import { createInterface } from "node:readline";
import { webcrypto } from "node:crypto";

const { Outbox, Unsent } = await import(process.argv[2]);
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const say = value => process.stdout.write(JSON.stringify(value) + "\n");
const next = async () => JSON.parse((await lines.next()).value);

const kept = new Map();
const storage = {
  getItem: k => (kept.has(k) ? kept.get(k) : null),
  setItem: (k, v) => kept.set(k, String(v)),
  removeItem: k => kept.delete(k),
};
let tick = 0;
const make = () => new Outbox({
  campaign: "c", storage, clock: () => ++tick, crypto: webcrypto,
  send: async entry => {
    say({ send: entry });
    const { answer } = await next();
    if (answer === "offline") throw new Unsent();
    if (answer === null) throw new TypeError("Failed to fetch");
    return answer;
  },
});
let outbox = make();

for (;;) {
  const command = await next();
  switch (command.op) {
    case "add": {
      const entry = outbox.add({ path: "/events", body: { events: [{ type: "x", data: command.data }] }, label: command.data.text });
      say({ added: entry.local });
      break;
    }
    case "flush": say({ flushed: await outbox.flush() }); break;
    case "reload": outbox = make(); say({ reloaded: true }); break;
    case "drop": say({ dropped: outbox.drop(command.local) !== null }); break;
    case "takeable": say({ takeable: outbox.takeable(command.local) }); break;
    case "retry": say({ retried: outbox.retry(command.local, command.body ?? null) !== null }); break;
    case "state": say({ entries: outbox.all() }); break;
    case "quit": process.exit(0);
  }
}
