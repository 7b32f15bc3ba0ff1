// The README's SDK example. Run `npm run dev` in another terminal first, then:
//   node examples/quickstart.mjs
import { BinClient } from "@binring/client";

const client = await BinClient.fromConfig("binring.json");
const alice = client.bin("alice");
await alice.set("greeting", "hello");
await alice.listAppend("todo", "write docs");
await alice.listAppend("todo", "ship");
console.log(await alice.get("greeting")); // hello
console.log(await alice.listGet("todo")); // [ 'write docs', 'ship' ]
console.log(await alice.listRemove("todo", "ship")); // 1
console.log(await alice.keys({ prefix: "gr" })); // [ 'greeting' ]
console.log(await alice.clock()); // a bigint, larger on every call
await client.close();
