/* The ledger table (table.ledger): click a header to sort, pick a verdict to filter. No library. */
document.addEventListener("DOMContentLoaded", function () {
  // sphinx-book-theme 1.3.0 hides the secondary sidebar while a .full-width block is in view,
  // and throws "Cannot read properties of null (reading 'classList')" on a page without one
  // (the ledger page has no table of contents). An empty, hidden one keeps its observer quiet;
  // it runs after this DOMContentLoaded listener.
  if (document.querySelector(".full-width") && !document.querySelector("div.bd-sidebar-secondary")) {
    var placeholder = document.createElement("div");
    placeholder.className = "bd-sidebar-secondary";
    placeholder.hidden = true;
    document.body.appendChild(placeholder);
  }
  var table = document.querySelector("table.ledger");
  if (!table || !table.tBodies.length) return;
  var body = table.tBodies[0];
  var rows = Array.prototype.slice.call(body.rows);
  var es = (document.documentElement.lang || "").indexOf("es") === 0;
  var VERDICT = 1; // the verdict column
  var text = function (row, i) { return row.cells[i].textContent.trim(); };

  var label = document.createElement("label");
  label.textContent = (es ? "Filtrar por veredicto: " : "Filter by verdict: ");
  var select = document.createElement("select");
  select.className = "ledger-filter";
  var all = document.createElement("option");
  all.value = ""; all.textContent = es ? "Todos" : "All";
  select.appendChild(all);
  rows.map(function (r) { return text(r, VERDICT); })
    .filter(function (v, i, a) { return a.indexOf(v) === i; })
    .forEach(function (v) { var o = document.createElement("option"); o.value = v; o.textContent = v; select.appendChild(o); });
  select.addEventListener("change", function () {
    rows.forEach(function (r) { r.hidden = !!select.value && text(r, VERDICT) !== select.value; });
  });
  label.appendChild(select);
  table.parentNode.insertBefore(label, table);

  Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, i) {
    th.style.cursor = "pointer";
    th.title = es ? "Ordenar" : "Sort";
    th.addEventListener("click", function () {
      var up = th.getAttribute("aria-sort") !== "ascending";
      Array.prototype.forEach.call(table.tHead.rows[0].cells, function (h) { h.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", up ? "ascending" : "descending");
      rows.slice().sort(function (a, b) {
        var c = text(a, i).localeCompare(text(b, i), document.documentElement.lang, { numeric: true });
        return up ? c : -c;
      }).forEach(function (r) { body.appendChild(r); });
    });
  });
});
