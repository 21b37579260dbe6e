/* A calculator on a page (lib/site/charts.readout_chart): its state lives in the page's address, and
   its readout is said again to screen readers. Called by each calculator's chart once Vega has drawn
   it (lib/site/charts.offline_renderer), with the chart's box, its Vega view and its controls
   ([signal, binding], those that others follow first). Loaded with the Vega bundle
   (book/_ext/assets.py); JupyterLab, whose address is its own, never loads it.

   The address: ?<signal>=<value> for each control (calc_gpus=2048&calc_days=21). Opening it sets
   each control whose value its widget could hold (within the slider's range, among the list's
   options, true or false), one after another, the ones others follow first; any other value is
   left out, and the control keeps the chapter's. Moving a control writes its value back. */
window.bookCalculator = function (box, view, controls) {
  var said = document.createElement("p");
  said.className = "visually-hidden";  // the theme's: out of sight, not out of hearing
  said.setAttribute("aria-live", "polite");
  box.after(said);
  function say() {
    said.textContent = Array.prototype.map.call(box.querySelectorAll("g.mark-text.role-mark text"),
                                                function (t) { return t.textContent; }).join(" ");
  }
  function held(binding, text) {
    if (binding.input === "range") {
      var number = Number(text);
      return text.trim() !== "" && number >= binding.min && number <= binding.max ? number : undefined;
    }
    if (binding.input === "checkbox") return text === "true" ? true : text === "false" ? false : undefined;
    var options = (binding.options || []).filter(function (option) { return String(option) === text; });
    return options.length ? options[0] : undefined;
  }
  var asked = new URLSearchParams(location.search);
  var restored = controls.reduce(function (done, control) {
    var text = asked.get(control[0]);
    var value = text === null ? undefined : held(control[1], text);
    return value === undefined ? done : done.then(function () { return view.signal(control[0], value).runAsync(); });
  }, Promise.resolve());
  return restored.then(function () {
    controls.forEach(function (control) {
      view.addSignalListener(control[0], function (name, value) {
        var query = new URLSearchParams(location.search);
        query.set(name, String(value));
        history.replaceState(history.state, "", "?" + query.toString() + location.hash);
        view.runAsync().then(say);
      });
    });
  });
};
