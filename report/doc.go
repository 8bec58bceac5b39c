// Package report renders offattr's answers as self-contained HTML pages a
// person reads: one run's timeline with its attribution, evidence and
// dependency graph, and a sortable table of a whole screen. It decides how
// an answer is shown; finding the answer is left to the stages before it.
//
// # Pages are safe to open whatever the logs hold
//
// Every text that comes from a log — step texts, agent names, quotes, trace
// ids, file names — is data, never markup. Three things keep it so:
//
//   - The pages are html/template templates, which escape each value for
//     the context it lands in (text, attribute, URL). No markup is built by
//     joining strings. The templates never place log text in a script, a
//     style or a URL; links point only at the page's own anchors and at
//     page names this package makes from a hash.
//   - Log text is cleaned before it is escaped: invalid UTF-8 is replaced,
//     and control and bidirectional-override characters are shown as
//     visible marks, so a log cannot hide text or reorder what is shown.
//   - Each page carries a Content-Security-Policy that allows nothing but
//     its own inline style and script, by hash: no request to any host, no
//     other script, no injected style attribute, even if escaping failed.
//
// A page reads well with JavaScript disabled. The script only adds
// convenience: filters, sorting, collapsing, and keys to move between steps.
package report
