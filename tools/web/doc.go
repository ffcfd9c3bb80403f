// Package web is the web tools: web_fetch, one GET of an http(s) URL,
// its page returned as text for the model (HTML as markdown, plain text
// and JSON as they are), bounded in size and time; and web_search, one
// query to the user's search backend (a SearXNG instance, Brave Search or
// Tavily), its results (title, URL, snippet) returned as data.
//
// Everything a page or a search backend says is hostile data. Both tools
// reach only public addresses: loopback, private, shared, link-local,
// multicast and other non-global addresses are refused, in every
// spelling (IPv4-mapped IPv6, old numeric IPv4 forms), on every hop of a
// redirect, on the address the connection is actually made to (so a name
// that changes its answer between the check and the connect cannot
// pass). Only hosts the user allows in their own config may reach a
// private address. No cookies, credentials or proxy settings are used; a
// search follows no redirect, so its API key goes nowhere but its API.
package web
