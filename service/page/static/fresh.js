// @ts-check
// What the live stream sends after each run of events: the answers of the views the page reads (the state, the
// scenario, each character, the fleet, the scenarios played...), as of the last of those events. A view read at that
// position is answered from here, so an event costs a phone no request beyond the stream.
export class Fresh {
  constructor() {
    this.sent = null;
  }
  take(data) {
    this.sent = JSON.parse(data);
  }
  // The answer the stream sent for this path as of `position`, or undefined when it sent none for it.
  answer(path, position) {
    const sent = this.sent;
    return sent && sent.position === position ? sent.views[path] : undefined;
  }
}
