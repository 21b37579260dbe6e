/* The ledger table (table.ledger): each header is a button that sorts by its column (figure
   columns by value), and a verdict filter. No library. Its words and the figures' values come
   from the page (<script id="ledger-data">, written by book/_ext/ledger_csv.py). */
document.addEventListener("DOMContentLoaded", function () {
  var table = document.querySelector("table.ledger");
  var dataTag = document.getElementById("ledger-data");
  if (!table || !table.tBodies.length || !dataTag) return;
  var data = JSON.parse(dataTag.textContent);
  var words = data.words;
  var body = table.tBodies[0];
  var rows = Array.prototype.slice.call(body.rows);
  var lang = document.documentElement.lang;
  var VERDICT = 0; // the verdict column: each label links to its claim's card
  var text = function (row, i) { return row.cells[i].textContent.trim(); };
  // A row's verdict, without the label's direction and size ("Needs context: too high, 2 times").
  var verdict = function (row) { return text(row, VERDICT).split(":")[0]; };

  // Figure columns sort by the number behind the text ("5,7 millones de dólares" > "992 GPU").
  rows.forEach(function (row) {
    var card = row.querySelector("a.ledger-card");
    var values = (card && data.values[card.getAttribute("href").split("#")[1]]) || {};
    Object.keys(values).forEach(function (i) {
      if (values[i] !== null && row.cells[i]) row.cells[i].setAttribute("data-sort-value", values[i]);
    });
  });

  var label = document.createElement("label");
  label.className = "ledger-filter-label";
  label.textContent = words.filter + " ";
  var select = document.createElement("select");
  select.className = "ledger-filter";
  var all = document.createElement("option");
  all.value = ""; all.textContent = words.all;
  select.appendChild(all);
  rows.map(verdict)
    .filter(function (v, i, a) { return a.indexOf(v) === i; })
    .forEach(function (v) { var o = document.createElement("option"); o.value = v; o.textContent = v; select.appendChild(o); });
  var status = document.createElement("span");
  status.className = "ledger-status";
  status.setAttribute("role", "status");
  select.addEventListener("change", function () {
    var shown = 0;
    rows.forEach(function (r) {
      r.hidden = !!select.value && verdict(r) !== select.value;
      if (!r.hidden) shown += 1;
    });
    status.textContent = " " + shown + " " + words.shown;
  });
  label.appendChild(select);
  var controls = document.createElement("p");
  controls.className = "ledger-controls";
  controls.appendChild(label);
  controls.appendChild(status);
  var holder = table.closest(".pst-scrollable-table-container") || table;
  holder.parentNode.insertBefore(controls, holder);

  var compare = function (i, sign) {
    return function (a, b) {
      var x = a.cells[i].getAttribute("data-sort-value"), y = b.cells[i].getAttribute("data-sort-value");
      if (x !== null || y !== null) {
        if (x === null) return 1; // qualitative figures after the numbers, either way
        if (y === null) return -1;
        return sign * (parseFloat(x) - parseFloat(y));
      }
      return sign * text(a, i).localeCompare(text(b, i), lang, { numeric: true });
    };
  };
  var headers = Array.prototype.slice.call(table.tHead.rows[0].cells);
  headers.forEach(function (th, i) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "ledger-sort";
    button.title = words.sort;
    var source = th.querySelector("p") || th; // a button holds phrasing content only
    while (source.firstChild) button.appendChild(source.firstChild);
    th.textContent = "";
    th.appendChild(button);
    button.addEventListener("click", function () {
      var up = th.getAttribute("aria-sort") !== "ascending";
      headers.forEach(function (h) { h.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", up ? "ascending" : "descending");
      rows.slice().sort(compare(i, up ? 1 : -1)).forEach(function (r) { body.appendChild(r); });
    });
  });
});
