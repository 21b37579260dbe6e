/* A chart with controls on a page (a calculator, lib/site/charts.readout_chart; the OPT price slider;
   the budget ladder): its state lives in the page's address, and a calculator's readout is said
   again to screen readers. Called by each such chart once Vega has drawn it
   (lib/site/charts.offline_renderer), with the chart's box, its Vega view and `options`: its
   `controls` ([signal, binding], those that others follow first), `messages`, `custom`, `powers`
   and `readout` (below). Loaded with the Vega bundle (book/_ext/assets.py); JupyterLab, whose
   address is its own, never loads it.

   The address: ?<signal>=<value> for each control (calc_gpus=2048&calc_days=21), and the chart's
   anchor (the same in both languages). Opening it sets each control whose value its widget could
   hold (a plain decimal within the slider's range, a whole one where it moves by whole steps,
   among the list's options, true or false), one after another, the ones others follow first; any
   other value is left out, and the control keeps the chapter's. Moving a control writes its value
   back.

   Beside each slider, a field to type its value in the page's number style (2.048,5 / 2,048.5):
   a value within the slider's limits (a whole one where the slider moves by whole steps) sets it,
   at the slider's nearest step (7,25 on a slider of tenths is 7,3: the readout writes the slider's
   decimals, so its factors multiply to its totals), and the field then writes the value used; any
   other gets the widgets' own message (`messages`, lib/data/words [errors], {name}, {low} and
   {high} filled in) and changes nothing. Moving any control clears the message. A slider
   named in `powers` moves by powers of ten: its field takes and writes 10 to the slider's value
   (the budget ladder's dollars; the compute calculator's parameters and tokens, which `whole` names:
   its field takes whole numbers only), exactly, not at the slider's step, within the limits as the
   field writes them, whole (10 to a slider's end may come back a few thousandths off the count it was
   set from: 10^log10(2e13) is 20000000000000.004, written and taken as 20.000.000.000.000).

   Below the chart, a link to this calculation (its address, with the chart's anchor): following it
   copies it too, where the browser lets a page write to the clipboard, and says so.

   `custom`: [{signal, value, kept}] for a preset list whose choice moves other controls (the rental
   calculator's run): once the reader moves or types a follower's value, or the address gives one
   the preset does not, the list shows `value` ("custom"), which leaves every control as the reader
   had it: for that option each follower's expression reads the signal `kept[follower]`, which this
   keeps equal to the follower (lib/calculators/rental.py). */
window.bookCalculator = function (box, view, options) {
  var controls = options.controls, messages = options.messages, presets = options.custom;
  var wholes = options.whole || [];
  function keep(name, value) {
    presets.forEach(function (preset) { if (preset.kept[name]) view.signal(preset.kept[name], value); });
  }
  function moved(name, value) {  // a follower set by hand: its preset no longer says what it holds
    presets.forEach(function (preset) {
      if (!preset.kept[name]) return;
      Object.keys(preset.kept).forEach(function (follower) { keep(follower, view.signal(follower)); });
      keep(name, value);
      if (view.signal(preset.signal) !== preset.value) view.signal(preset.signal, preset.value);
    });
  }
  var said = document.createElement("p");
  said.className = "visually-hidden";  // the theme's: out of sight, not out of hearing
  said.setAttribute("aria-live", "polite");
  box.after(said);
  function say() {
    if (!options.readout) return;
    said.textContent = Array.prototype.map.call(box.querySelectorAll("g.mark-text.role-mark text"),
                                                function (t) { return t.textContent; }).join(" ");
  }
  function held(binding, text) {
    if (binding.input === "range") {  // as the page writes it in its address: 2048, 20.8
      var number = /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : NaN;
      var whole = binding.step < 1 || number === Math.round(number);
      return whole && number >= binding.min && number <= binding.max ? number : undefined;
    }
    if (binding.input === "checkbox") return text === "true" ? true : text === "false" ? false : undefined;
    var options = (binding.options || []).filter(function (option) { return String(option) === text; });
    return options.length ? options[0] : undefined;
  }
  var lang = document.documentElement.lang || "en";
  var group = lang === "es" ? "." : ",", decimal = lang === "es" ? "," : ".";
  function decimals(step) { return step > 0 && step < 1 ? Math.ceil(-Math.log10(step) - 1e-9) : 0; }
  function onStep(value, binding) {  // the slider's nearest step to a typed value, within its limits
    var steps = Math.round((value - binding.min) / binding.step);
    var snapped = Number((binding.min + steps * binding.step).toFixed(decimals(binding.step)));
    return Math.min(binding.max, Math.max(binding.min, snapped));
  }
  function style(step) {  // the step's decimals, and two more for a value off the slider's grid (a preset's)
    var digits = decimals(step);
    return new Intl.NumberFormat(lang, {minimumFractionDigits: digits, maximumFractionDigits: digits + 2,
                                        useGrouping: "always"});
  }
  function read(text) {  // the page's style; a group mark is one followed by exactly three digits
    var t = text.trim().replace(/\s/g, "");
    if (!/^-?[\d.,]+$/.test(t)) return NaN;
    t = t.split(group).reduce(function (whole, part, n) {
      return n === 0 ? part : whole + (/^\d{3}(\D|$)/.test(part) ? "" : ".") + part;
    }, "");
    return Number(t.split(decimal).join("."));
  }
  var fields = {};
  // Vega puts the controls in a <form>: Enter in a field would submit it, reloading the page.
  var form = box.querySelector("form.vega-bindings");
  if (form) form.addEventListener("submit", function (event) { event.preventDefault(); });
  controls.forEach(function (control) {
    var binding = control[1], slider = box.querySelector('input[type="range"][name="' + control[0] + '"]');
    if (binding.input !== "range" || !slider) return;
    var power = options.powers.indexOf(control[0]) >= 0, whole = wholes.indexOf(control[0]) >= 0;
    // What the field writes and reads, and the slider's value for it.
    // To the micro-dollar, as the chart's readout (lib.site.charts.BUDGET_USD): 10 to the log of 99.5
    // is 99.49999999999999, which whole dollars would write as 99.
    var shown = power ? function (v) { return Math.round(Math.pow(10, v) * 1e6) / 1e6; } : function (v) { return v; };
    var sliderValue = power ? Math.log10 : function (x) { return x; };
    var numbers = power ? new Intl.NumberFormat(lang, {maximumFractionDigits: 0, useGrouping: "always"})
      : style(binding.step), limits = new Intl.NumberFormat(lang, {useGrouping: "always"});
    var name = (binding.name || control[0]).trim().replace(/:$/, "");
    var field = document.createElement("input"), note = document.createElement("span");
    field.type = "text";
    field.inputMode = "decimal";
    field.className = "calculator-number";
    // Wide enough for the slider's longest value as the page writes it (the ladder's 10.000.000.000).
    var longest = Math.max(numbers.format(shown(binding.min)).length, numbers.format(shown(binding.max)).length);
    field.style.width = "max(6.5em, " + (longest + 2) + "ch)";
    field.setAttribute("aria-label", name);
    note.className = "calculator-note";
    note.setAttribute("aria-live", "polite");
    slider.closest("label").after(field, note);
    field.addEventListener("change", function () {
      // A power's limits as its field writes them, whole (10^log10(2e13) is 20000000000000.004).
      var low = shown(binding.min), high = shown(binding.max);
      if (power) { low = Math.round(low); high = Math.round(high); }
      var typed = read(field.value);
      var wrong = isNaN(typed) ? messages.number : typed < low || typed > high ? messages.range
        : (power ? whole : binding.step >= 1) && typed !== Math.round(typed) ? messages.whole : "";
      note.textContent = wrong.replace("{name}", name).replace("{low}", limits.format(low))
        .replace("{high}", limits.format(high));
      if (wrong) { field.setAttribute("aria-invalid", "true"); return; }
      field.removeAttribute("aria-invalid");
      var value = power ? Math.min(binding.max, Math.max(binding.min, sliderValue(typed))) : onStep(typed, binding);
      moved(control[0], value);
      view.signal(control[0], value).runAsync();
      fields[control[0]](value);  // the value used, written as the page writes it, changed or not
    });
    slider.addEventListener("input", function () { moved(control[0], Number(slider.value)); view.runAsync(); });
    fields[control[0]] = function (value) {
      field.value = numbers.format(shown(value));
      note.textContent = "";
      field.removeAttribute("aria-invalid");
    };
  });
  var asked = new URLSearchParams(location.search);
  var restored = controls.reduce(function (done, control) {
    var text = asked.get(control[0]);
    var value = text === null ? undefined : held(control[1], text);
    return value === undefined ? done : done.then(function () {
      if (value !== view.signal(control[0])) moved(control[0], value);
      return view.signal(control[0], value).runAsync();
    });
  }, Promise.resolve());
  var link = document.createElement("p"), anchor = document.createElement("a"), copied = document.createElement("span");
  link.className = "calculator-link";
  anchor.textContent = messages.link;
  copied.setAttribute("aria-live", "polite");
  link.append(anchor, " ", copied);
  function address() { anchor.href = location.search + "#" + box.id; }
  anchor.addEventListener("click", function () {
    if (!navigator.clipboard) return;
    navigator.clipboard.writeText(anchor.href).then(function () { copied.textContent = messages.copied; }, function () {});
  });
  said.after(link);
  return restored.then(function () {
    address();
    controls.forEach(function (control) {
      if (fields[control[0]]) fields[control[0]](view.signal(control[0]));  // once the address has set it
      view.addSignalListener(control[0], function (name, value) {
        // Every field, so that none keeps a refused value (or its message) beside a readout that moved.
        Object.keys(fields).forEach(function (other) { fields[other](view.signal(other)); });
        var query = new URLSearchParams(location.search);
        query.set(name, String(value));
        // The chart's anchor too: the language switch keeps it, and lands on the same calculator.
        history.replaceState(history.state, "", "?" + query.toString() + "#" + box.id);
        address();
        copied.textContent = "";
        // Vega calls this during its run: the readout is said once that run has drawn it.
        setTimeout(function () { keep(name, value); view.runAsync().then(say); }, 0);
      });
    });
  });
};
