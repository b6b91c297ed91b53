// What the table page puts on `window` for its browser tests (app.js): the open campaign's table.
interface Window {
  quartermaster: unknown;
}
