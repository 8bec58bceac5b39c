// offattr report: conveniences over a page that is complete without them.
// Text from logs is only ever read from the page (textContent, classes) to
// compare and sort; nothing here builds markup from it.
(function () {
  "use strict";
  var doc = document, root = doc.documentElement;
  root.classList.add("js");
  Array.prototype.forEach.call(doc.querySelectorAll("form.controls"), function (f) {
    f.hidden = false;
    f.addEventListener("submit", function (e) { e.preventDefault(); });
  });

  // Printing shows every text in full; what was closed is closed again after.
  var reopened = [];
  window.addEventListener("beforeprint", function () {
    reopened = Array.prototype.filter.call(doc.querySelectorAll("details"), function (d) { return !d.open; });
    reopened.forEach(function (d) { d.open = true; });
  });
  window.addEventListener("afterprint", function () {
    reopened.forEach(function (d) { d.open = false; });
    reopened = [];
  });

  function typing(e) {
    var t = e.target, n = t && t.nodeName;
    return e.altKey || e.ctrlKey || e.metaKey || n === "INPUT" || n === "SELECT" || n === "TEXTAREA";
  }

  if (doc.body.classList.contains("page-run")) { runPage(); }
  if (doc.body.classList.contains("page-screen")) { screenPage(); }

  function runPage() {
    var form = doc.querySelector("form.controls");
    var steps = Array.prototype.slice.call(doc.querySelectorAll("li.step"));
    function agentOf(li) {
      for (var i = 0; i < li.classList.length; i++) {
        if (/^ag\d*$/.test(li.classList[i])) { return li.classList[i]; }
      }
      return "";
    }
    function filter() {
      var on = {};
      Array.prototype.forEach.call(form.querySelectorAll("input[name=agent]"), function (c) { on[c.value] = c.checked; });
      var marked = form.querySelector("input[name=marked]").checked;
      steps.forEach(function (li) {
        var show = on[agentOf(li)] !== false && (!marked || li.classList.contains("marked") || li.classList.contains("blamed"));
        li.classList.toggle("off", !show);
      });
    }
    form.addEventListener("change", filter);
    function setOpen(open) {
      Array.prototype.forEach.call(doc.querySelectorAll("details.text"), function (d) { d.open = open; });
    }
    function go(li) {
      if (!li) { return; }
      li.classList.remove("off");
      li.focus();
      li.scrollIntoView({block: "start"});
    }
    form.addEventListener("click", function (e) {
      var act = e.target.getAttribute && e.target.getAttribute("data-act");
      if (act === "expand") { setOpen(true); }
      if (act === "collapse") { setOpen(false); }
      if (act === "blamed") { go(doc.querySelector("[data-blamed=true]")); }
    });
    window.addEventListener("hashchange", function () {
      var t = doc.getElementById(location.hash.slice(1));
      if (t && t.classList.contains("step")) { t.classList.remove("off"); }
    });
    function current() {
      var a = doc.activeElement;
      while (a && !(a.classList && a.classList.contains("step"))) { a = a.parentElement; }
      return a;
    }
    function visible() { return steps.filter(function (li) { return !li.classList.contains("off"); }); }
    doc.addEventListener("keydown", function (e) {
      if (typing(e)) { return; }
      var vis, i, cur;
      switch (e.key) {
      case "j": case "k":
        vis = visible(); cur = current(); i = vis.indexOf(cur);
        if (e.key === "j") { i = i < 0 ? 0 : Math.min(i + 1, vis.length - 1); } else { i = i < 0 ? 0 : Math.max(i - 1, 0); }
        go(vis[i]);
        break;
      case "o":
        cur = current();
        var d = cur && cur.querySelector("details.text");
        if (d) { d.open = !d.open; }
        break;
      case "b":
        go(doc.querySelector("[data-blamed=true]"));
        break;
      case "g":
        window.scrollTo(0, 0);
        break;
      default:
        return;
      }
      e.preventDefault();
    });
  }

  function screenPage() {
    var form = doc.querySelector("form.controls");
    var table = doc.querySelector("table.rows");
    var body = table.tBodies[0];
    var count = doc.querySelector(".shown");
    var cols = {file: 0, agent: 1, step: 2, conf: 3, triage: 4, rules: 5, reason: 6};
    // The rows are read only when a filter or a sort first needs them:
    // opening a screen of 10,000 runs costs nothing more than its table.
    var rows = null;
    function index() {
      rows = rows || Array.prototype.map.call(body.rows, function (tr, i) {
        var c = tr.cells;
        var num = function (k) { var t = c[k].textContent; return t === "" ? NaN : Number(t); };
        return {tr: tr, i: i, file: c[0].textContent, agent: c[1].textContent, key: agentKey(c[1].textContent), step: num(2), conf: num(3),
          triage: c[4].textContent, rules: c[5].textContent === "" ? [] : c[5].textContent.split(", "), reason: c[6].textContent};
      });
      return rows;
    }
    // agentKey is run.AgentKey: one agent however its name is spelled
    // ("WebSurfer", "web_surfer"), as the summary counts them.
    function agentKey(name) {
      var k = name.toLowerCase().replace(/[^\p{L}\p{Nd}]/gu, "");
      return k || (name && "\u0000" + name);
    }
    var sortKey = "", desc = false;

    // Column headers become buttons that sort, announced with aria-sort.
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th) {
      var key = th.getAttribute("data-key");
      if (!key) { return; }
      var b = doc.createElement("button");
      b.type = "button";
      b.textContent = th.textContent;
      th.textContent = "";
      th.appendChild(b);
      b.addEventListener("click", function () {
        desc = sortKey === key ? !desc : key === "conf";
        sortKey = key;
        sort();
        save();
      });
    });

    function value(r, key) {
      var v = r[key];
      return key === "rules" ? v.join(", ") : v;
    }
    function sort() {
      Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th) {
        if (th.getAttribute("data-key") === sortKey) {
          th.setAttribute("aria-sort", desc ? "descending" : "ascending");
        } else {
          th.removeAttribute("aria-sort");
        }
      });
      var sorted = index().slice();
      if (sortKey) {
        sorted.sort(function (a, b) {
          var x = value(a, sortKey), y = value(b, sortKey), c;
          if (typeof x === "number") {
            // Rows without a number (failures) stay last either way.
            if (isNaN(x) || isNaN(y)) { return isNaN(x) - isNaN(y) || a.i - b.i; }
            c = x - y;
          } else {
            c = x < y ? -1 : x > y ? 1 : 0;
          }
          return (desc ? -c : c) || a.i - b.i;
        });
      }
      var frag = doc.createDocumentFragment();
      sorted.forEach(function (r) { frag.appendChild(r.tr); });
      body.appendChild(frag);
    }
    function field(name) { return form.elements[name]; }
    function apply() {
      var triage = field("triage").value, agent = agentKey(field("agent").value), rule = field("rule").value;
      var min = parseFloat(field("min").value), max = parseFloat(field("max").value);
      var q = field("q").value.toLowerCase();
      var shown = 0;
      index().forEach(function (r) {
        var ok = (!triage || r.triage === triage) && (!agent || r.key === agent) &&
          (!rule || r.rules.indexOf(rule) >= 0) &&
          (isNaN(min) || r.conf >= min) && (isNaN(max) || r.conf <= max) &&
          (!q || r.file.toLowerCase().indexOf(q) >= 0);
        r.tr.hidden = !ok;
        if (ok) { shown++; }
      });
      count.textContent = "showing " + shown + " of " + rows.length;
    }
    // The filters and the sort live in the address's fragment, so that a
    // filtered view can be bookmarked or sent as a link.
    var names = ["triage", "agent", "rule", "min", "max", "q"];
    function save() {
      var p = new URLSearchParams();
      names.forEach(function (n) { if (field(n).value) { p.set(n, field(n).value); } });
      if (sortKey) { p.set("sort", sortKey); p.set("dir", desc ? "desc" : "asc"); }
      history.replaceState(null, "", "#" + p.toString());
    }
    // load applies the view the address names; false when it names none.
    function load() {
      var h = location.hash.slice(1);
      if (h.indexOf("=") < 0) { return false; }
      var p = new URLSearchParams(h);
      names.forEach(function (n) { if (p.has(n)) { field(n).value = p.get(n); } });
      // An agent named in the address is found however it is spelled.
      if (p.has("agent") && !field("agent").value) {
        var want = agentKey(p.get("agent"));
        Array.prototype.some.call(field("agent").options, function (o) {
          if (o.value && agentKey(o.value) === want) { field("agent").value = o.value; return true; }
          return false;
        });
      }
      var k = p.get("sort");
      if (k && Object.prototype.hasOwnProperty.call(cols, k)) {
        sortKey = k;
        desc = p.get("dir") === "desc";
        sort();
      }
      return true;
    }
    form.addEventListener("input", function () { apply(); save(); });
    form.addEventListener("change", function () { apply(); save(); });
    form.addEventListener("reset", function () {
      setTimeout(function () { sortKey = ""; desc = false; sort(); apply(); save(); }, 0);
    });
    doc.addEventListener("keydown", function (e) {
      if (!typing(e) && e.key === "/") { e.preventDefault(); field("q").focus(); }
    });
    if (load()) {
      apply();
    } else {
      count.textContent = "showing all " + body.rows.length;
    }
  }
})();
