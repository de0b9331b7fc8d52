"""A friend's seat on the host's page without a real connection: a stand-in for the guest's
data channel (FriendsHost.receive is the channel's own handler)."""

# What the host sends is kept in `window.__guestInbox`; `bufferedAmount` is what the host
# reads before sending (it holds back past 1 MB).
FAKE_GUEST = """() => {
  const host = window.__trucoFriendsHost, g = host.guests.get(1);
  window.__guestInbox = [];
  g.channel = { readyState: 'open', bufferedAmount: 0, send: (text) => window.__guestInbox.push(JSON.parse(text)) };
  g.open = true;
  host.onChange();
}"""

# The guest's message handed to the host as its channel would; resolves with the host's reply.
GUEST_SENDS = """async (msg) => {
  const host = window.__trucoFriendsHost;
  await host.receive(1, host.guests.get(1), JSON.stringify(msg));
  return window.__guestInbox.find((m) => m.id === msg.id) ?? null;
}"""
