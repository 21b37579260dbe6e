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
    field.dataset.control = control[0];
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
  // A control that does nothing while another holds a value (`idle`: {control: [other, value]}: the
  // planner's utilisation while the speed is the model's) is disabled then, its field too.
  var idle = options.idle || {};
  function idleness() {
    Object.keys(idle).forEach(function (name) {
      var off = view.signal(idle[name][0]) === idle[name][1];
      box.querySelectorAll('[name="' + name + '"], [data-control="' + name + '"]').forEach(function (input) {
        input.disabled = off;
      });
    });
  }
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
  if (options.own && window.bookPlannerBox) window.bookPlannerBox(box, view, options.own);
  return restored.then(function () {
    address();
    idleness();
    controls.forEach(function (control) {
      if (fields[control[0]]) fields[control[0]](view.signal(control[0]));  // once the address has set it
      view.addSignalListener(control[0], function (name, value) {
        // Every field, so that none keeps a refused value (or its message) beside a readout that moved.
        Object.keys(fields).forEach(function (other) { fields[other](view.signal(other)); });
        idleness();
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

/* The planner's model of the reader's own (lib/calculators/planner.py, own_options): a Hugging Face
   config.json pasted as text, read as lib.plan reads a config's file and turned into the constants the
   page's expressions read of a shipped model (planner.constants), or a message in the page's language
   from lib.plan's own (lib/data/words [plan.errors]). Written again from lib/plan/shapes.py (shape,
   param_count, linear_modules, expert_parameters, all_linear_parameters) and lib/plan/memory.py (terms,
   adapter_params, quantised_params) and speed.adapted_expert_flops; tests/test_browser.py holds the two
   together on shipped configs. Returns {m, shape} or {error}. */
window.bookPlannerModel = function (text, own) {
  var w = own.words;
  function fail(key, values) {
    var said = w.errors[key].replace(/\{(\w+)(!r)?\}/g, function (_, name) { return values[name]; });
    return {error: w.error.replace("{message}", said)};
  }
  function repr(value) {  // as Python's repr writes a config's value
    if (value === null || value === undefined) return "None";
    if (value === true || value === false) return value ? "True" : "False";
    if (typeof value === "string") return "'" + value + "'";
    if (Array.isArray(value)) return "[" + value.map(repr).join(", ") + "]";
    if (typeof value === "object") return "{...}";
    return String(value);
  }
  var config;
  try {
    config = JSON.parse(text);
  } catch (problem) {
    var at = /line (\d+) column (\d+)/.exec(String(problem.message));
    return fail("not_json", {path: w.path, error: at ? at[1] + ":" + at[2] : "?"});
  }
  if (config === null || typeof config !== "object" || Array.isArray(config)) return fail("not_object", {path: w.path});
  function given(name) { return config[name] !== undefined && config[name] !== null; }
  function field() {  // shapes._field: the first name given, a positive whole number
    var names = Array.prototype.slice.call(arguments);
    for (var n = 0; n < names.length; n++) {
      if (!given(names[n])) continue;
      var value = config[names[n]];
      if (typeof value !== "number" || !Number.isInteger(value) || value <= 0)
        throw fail("bad_field", {field: repr(names[n]), value: repr(value)});
      return value;
    }
    throw fail("missing_field", {field: names.map(repr).join(" or ")});
  }
  var archs = own.architectures, type = config.model_type;
  if (!Object.prototype.hasOwnProperty.call(archs, type)) {
    type = null;
    (config.architectures || []).forEach(function (cls) {
      Object.keys(archs).forEach(function (kind) { if (!type && archs[kind][1] === cls) type = kind; });
    });
    if (!type) return fail("unknown_arch", {model_type: repr(config.model_type), architectures: repr(config.architectures),
                                            known: Object.keys(archs).sort().join(", ")});
  }
  var s;
  try {
    var arch = archs[type][0];
    if (arch === "gpt2") {
      var h = field("n_embd"), heads = field("n_head");
      s = {model_type: type, arch: arch, vocab: field("vocab_size"), hidden: h, layers: field("n_layer"), heads: heads,
           kv_heads: heads, head_dim: Math.floor(h / heads), intermediate: config.n_inner || 4 * h, experts: 1,
           experts_per_token: 1, tied: "tie_word_embeddings" in config ? !!config.tie_word_embeddings : true,
           max_positions: field("n_positions"), qkv_bias: 1, o_bias: 1, mlp_bias: 1, router_bias: 0, qk_norm: 0,
           sinks: 0, learned: 1, mlp: "gelu", norm: "layernorm"};
    } else {
      var hidden = field("hidden_size"), n = field("num_attention_heads"), moe = type === "mixtral" || type === "gpt_oss";
      var experts = moe ? field("num_local_experts") : 1, perToken = moe ? field("num_experts_per_tok", "experts_per_token") : 1;
      var bias = !!config.attention_bias;
      s = {model_type: type, arch: arch, vocab: field("vocab_size"), hidden: hidden, layers: field("num_hidden_layers"),
           heads: n, kv_heads: config.num_key_value_heads ? field("num_key_value_heads") : n,
           head_dim: config.head_dim ? field("head_dim") : Math.floor(hidden / n), intermediate: field("intermediate_size"),
           experts: experts, experts_per_token: perToken,
           tied: !!config.tie_word_embeddings, max_positions: field("max_position_embeddings", "max_sequence_length"),
           qkv_bias: +(type === "qwen2" || bias), o_bias: +bias, mlp_bias: +(type === "gpt_oss" || !!config.mlp_bias),
           router_bias: +(type === "gpt_oss"), qk_norm: +(type === "olmo2"), sinks: +(type === "gpt_oss"), learned: 0,
           mlp: "swiglu", norm: "rmsnorm"};
    }
  } catch (refused) {
    if (refused && refused.error) return refused;
    throw refused;
  }
  var coefficients = own.coefficients[s.model_type];
  if (!coefficients) return fail("arch_not_derived", {name: s.model_type, known: Object.keys(own.coefficients).join(", ")});
  // shapes._parts and param_count
  var q = s.heads * s.head_dim, kv = s.kv_heads * s.head_dim;
  var attention = s.hidden * (q + 2 * kv) + q * s.hidden;
  attention += (q + 2 * kv) * s.qkv_bias + s.hidden * s.o_bias;
  attention += (q + kv) * s.qk_norm + s.heads * s.sinks;
  var expert = s.mlp === "gelu" ? 2 * s.hidden * s.intermediate + (s.intermediate + s.hidden) * s.mlp_bias
    : 3 * s.hidden * s.intermediate + (2 * s.intermediate + s.hidden) * s.mlp_bias;
  var norm = s.hidden * (s.norm === "layernorm" ? 2 : 1);
  var router = s.experts > 1 ? s.hidden * s.experts + s.experts * s.router_bias : 0;
  var parts = {embeddings: s.vocab * s.hidden + (s.learned ? s.max_positions * s.hidden : 0),
               lm_head: s.tied ? 0 : s.vocab * s.hidden, attention: s.layers * attention,
               experts: s.layers * s.experts * expert, router: s.layers * router, norms: s.layers * 2 * norm + norm};
  var shared = parts.embeddings + parts.lm_head + parts.attention + parts.router + parts.norms;
  var active = shared + s.layers * s.experts_per_token * expert;
  var total = shared + parts.experts;
  var multiplied = active - parts.embeddings + (s.tied ? s.vocab * s.hidden : 0);
  // shapes.linear_modules, expert_parameters, all_linear_parameters
  var modules = s.arch === "gpt2" ? [["c_attn", s.hidden, 3 * s.hidden], ["attn.c_proj", s.hidden, s.hidden],
                                     ["c_fc", s.hidden, s.intermediate], ["mlp.c_proj", s.intermediate, s.hidden]]
    : [["q_proj", s.hidden, q], ["k_proj", s.hidden, kv], ["v_proj", s.hidden, kv], ["o_proj", q, s.hidden]].concat(
      s.experts === 1 ? [["gate_proj", s.hidden, s.intermediate], ["up_proj", s.hidden, s.intermediate],
                         ["down_proj", s.intermediate, s.hidden]] : []);
  var stacks = s.experts === 1 ? [] : [[s.hidden, 2 * s.intermediate], [s.intermediate, s.hidden]];
  var implied = s.model_type === "mixtral" ? [[s.hidden, s.experts, 1, 1], [s.hidden, 2 * s.intermediate, s.experts, 2],
                                              [s.intermediate, s.hidden, s.experts, 1]] : [];
  var qv = s.arch === "gpt2" ? ["c_attn"] : ["q_proj", "v_proj"];
  var on = {qv: modules.filter(function (m) { return qv.indexOf(m[0]) >= 0; }), all: modules};
  function grouped(shapes) {  // planner._grouped: [count, k, n, ...], alike shapes once, in order
    var order = [], counts = {};
    shapes.forEach(function (kn) {
      var key = kn[0] + "," + kn[1];
      if (!(key in counts)) { counts[key] = 0; order.push(kn); }
      counts[key] += 1;
    });
    return order.reduce(function (out, kn) { return out.concat([counts[kn[0] + "," + kn[1]], kn[0], kn[1]]); }, []);
  }
  function sum(list, each) { return list.reduce(function (total, x) { return total + each(x); }, 0); }
  // memory.adapter_params at rank 1, and speed.adapted_expert_flops: "all-linear" adapts Mixtral's experts
  var adapters = {qv: s.layers * sum(on.qv, function (m) { return 1 * (m[1] + m[2]); }),
                  all: s.layers * sum(modules, function (m) { return 1 * (m[1] + m[2]); })
                    + s.layers * sum(implied, function (p) { return 1 * p[3] * p[2] * (p[0] + p[1]); })};
  var flops = {qv: 0, all: implied.length ? 2 * s.layers * s.experts_per_token * sum(stacks, function (p) { return p[0] * p[1]; }) : 0};
  // memory.terms: what each counted instance keeps, by the shape's sizes
  function terms(c) {
    function g(name) { return c[name] || 0; }
    var repeated = (s.kv_heads > 1 ? s.heads : s.kv_heads) * s.head_dim;
    var layer = c.layer_one + c.layer_hidden * s.hidden + g("layer_q") * s.heads * s.head_dim
      + g("layer_kv") * s.kv_heads * s.head_dim + g("layer_kv_repeated") * repeated
      + c.layer_ffn * s.intermediate * s.experts_per_token + c.layer_heads * s.heads
      + g("layer_experts") * s.experts + g("layer_routed") * s.experts_per_token
      + g("layer_routed_hidden") * s.experts_per_token * s.hidden;
    var found = {layer: layer, layer_seq: g("layer_heads_seq") * s.heads + g("layer_seq"),
                 outside: c.outside_hidden * s.hidden + g("outside_head_dim") * s.head_dim + c.outside_vocab * s.vocab,
                 outside_seq: g("outside_seq"),
                 first: g("first_q") * s.heads * s.head_dim + g("first_kv") * s.kv_heads * s.head_dim,
                 step_fixed: g("step_experts") * s.experts,
                 step_weights: g("step_expert_weights") * s.experts * s.hidden * s.intermediate,
                 step_rank: (g("step_expert_factors_hidden") * s.experts * s.hidden
                             + g("step_expert_factors_ffn") * s.experts * s.intermediate) / own.rank};
    return own.terms.map(function (name) { return found[name] || 0; });
  }
  var act = {}, derived = {};
  Object.keys(coefficients).sort().forEach(function (method) {
    Object.keys(coefficients[method]).forEach(function (kind) { derived[method + "." + kind] = 1; });
  });
  Object.keys(derived).sort().forEach(function (key) {
    var parts = key.split(".");
    act[key] = terms(coefficients[parts[0]][parts[1]]);
    derived[parts[1]] = 1;
  });
  var attentions = own.attentions.filter(function (a) { return derived[own.stored[a]]; });
  function padded(list, length) { while (list.length < length) list = list.concat([0]); return list; }
  var m = {total: total, multiplied: multiplied, quantised: s.layers * sum(modules, function (x) { return x[1] * x[2]; }),
           layers: s.layers, hidden: s.hidden, vocab: s.vocab, positions: s.max_positions,
           tables: s.vocab * s.hidden * (s.tied ? 1 : 2), heads: s.heads, head_dim: s.head_dim, learned: s.learned,
           gqa: +(s.kv_heads !== s.heads), qv_key: s.arch === "gpt2" ? "lora-c_attn" : "lora-qv", attentions: attentions,
           adapters_qv: adapters.qv, adapters_all: adapters.all, expert_flops_qv: flops.qv, expert_flops_all: flops.all,
           act: act, mm: padded(grouped(modules.map(function (x) { return [x[1], x[2]]; })), own.lengths.mm),
           ad_qv: padded(grouped(on.qv.map(function (x) { return [x[1], x[2]]; })), own.lengths.ad_qv),
           ad_all: padded(grouped(modules.map(function (x) { return [x[1], x[2]]; })), own.lengths.ad_all),
           n_qv: on.qv.length, n_all: modules.length, E: s.experts,
           share: s.experts > 1 ? s.experts_per_token / s.experts : 0,
           xs: padded(s.experts > 1 ? grouped(stacks) : [], own.lengths.xs),
           xall: s.experts > 1 && implied.length ? 1 : 0, kl: own.kernels[s.arch]};
  if (["mm", "ad_qv", "ad_all", "xs"].some(function (k) { return m[k].length > own.lengths[k]; }))
    return fail("arch_not_derived", {name: s.model_type, known: Object.keys(own.coefficients).join(", ")});
  // As the page writes a shipped model's table (planner.literal): numbers to ten significant digits.
  function written(value) {
    if (typeof value === "number") return Number(value.toPrecision(10));
    if (Array.isArray(value)) return value.map(written);
    if (value && typeof value === "object") {
      var out = {};
      Object.keys(value).forEach(function (k) { out[k] = written(value[k]); });
      return out;
    }
    return value;
  }
  m = written(m);
  // the attention it runs by default (memory.default_attention), and the message for one it is not derived with
  m.default_attention = attentions.indexOf("sdpa") >= 0 || !Object.keys(act).length ? "sdpa" : "eager";
  m.no_attention = w.no_attention.replace("{attention}", attentions.map(function (a) { return w.attentions[a]; }).join(", "));
  return {m: m, shape: s};
};

/* The box for a pasted config.json under the planner's controls: what it holds, once read, sets the page's
   model (the signal own.signal) in place of the list's, and its default attention; a config it refuses
   gets its message under the box, in the page's language, and the readout no figure. Emptied, the list's
   model is back. */
window.bookPlannerBox = function (box, view, own) {
  var form = box.querySelector("form.vega-bindings") || box.querySelector(".vega-bindings");
  if (!form) return;
  var label = document.createElement("label"), area = document.createElement("textarea"), note = document.createElement("p");
  label.className = "calculator-config";
  label.append(own.words.label);
  area.rows = 4;
  area.placeholder = own.words.placeholder;
  area.spellcheck = false;
  label.append(area);
  note.className = "calculator-note";
  note.setAttribute("aria-live", "polite");
  form.append(label, note);
  function read() {
    var text = area.value.trim();
    if (!text) {
      note.textContent = "";
      area.removeAttribute("aria-invalid");
      return view.signal(own.signal, null).runAsync();
    }
    var found = window.bookPlannerModel(text, own);
    if (found.error) {
      note.textContent = found.error;
      area.setAttribute("aria-invalid", "true");
      return view.signal(own.signal, {error: found.error}).runAsync();
    }
    area.removeAttribute("aria-invalid");
    var lang = document.documentElement.lang || "en";
    note.textContent = own.words.used.replace("{model_type}", found.shape.model_type)
      .replace("{params}", new Intl.NumberFormat(lang, {useGrouping: "always"}).format(found.m.total));
    return view.signal(own.attention, found.m.default_attention).signal(own.signal, found.m).runAsync();
  }
  area.addEventListener("change", read);
};
