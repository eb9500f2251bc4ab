// capplan's own script. No framework, no inline code: the page's CSP is
// script-src 'self'. It does two things:
//
//  1. Charts. Every <div class="chart" data-echarts-option='{...}'> is drawn
//     with ECharts when the page loads and whenever htmx swaps new content
//     in. Instances inside content that htmx removes are disposed of.
//     ECharts (1.1 MB) is not in the page's <head>: it is fetched only
//     when a chart is on the page, and only once the page has loaded (its
//     own script tag names it, data-echarts), so the page shows and
//     answers without waiting for it and a page with no chart, such as the
//     login page, never loads it.
//
//  2. Uploads. A <form class="upload" data-upload data-target="#result">
//     holding an <input type="file" multiple> and a <progress> is posted by
//     XMLHttpRequest as soon as files are chosen or dropped on it, so the
//     progress bar can move; the response HTML replaces the contents of the
//     data-target element. Without JS the form still posts normally.
(function () {
  "use strict";

  // ---- Charts ----

  var live = new Set(); // ECharts instances currently on the page

  function chartsIn(root) {
    var found = [];
    if (!root || root.nodeType !== 1) return found;
    if (root.matches("[data-echarts-option]")) found.push(root);
    root.querySelectorAll("[data-echarts-option]").forEach(function (el) {
      found.push(el);
    });
    return found;
  }

  // The URL of ECharts, from this script's own tag; read now, while
  // document.currentScript is this script.
  var echartsSrc = document.currentScript && document.currentScript.getAttribute("data-echarts");
  var echartsState = "absent"; // absent → waiting (for the load event) → loading → failed

  // needECharts fetches ECharts once, after the page's load event, and
  // then draws every chart on the page.
  function needECharts() {
    if (echartsState !== "absent" || !echartsSrc) return;
    echartsState = "waiting";
    function fetch() {
      echartsState = "loading";
      var s = document.createElement("script");
      s.src = echartsSrc;
      s.async = true;
      s.onload = function () {
        initCharts(document.body);
      };
      s.onerror = function () {
        echartsState = "failed";
        console.error("capplan: could not load the chart library from " + echartsSrc);
      };
      document.head.appendChild(s);
    }
    if (document.readyState === "complete") {
      fetch();
    } else {
      window.addEventListener("load", fetch, { once: true });
    }
  }

  function initCharts(root) {
    if (typeof echarts === "undefined") {
      if (chartsIn(root).length > 0) needECharts();
      return;
    }
    chartsIn(root).forEach(function (el) {
      var src = el.getAttribute("data-echarts-option");
      var old = echarts.getInstanceByDom(el);
      if (old && old.capplanSource === src) return; // already drawn
      if (old) {
        live.delete(old);
        old.dispose();
      }
      var option;
      try {
        option = JSON.parse(src);
      } catch (err) {
        console.error("capplan: bad chart option JSON", err);
        return;
      }
      var chart = echarts.init(el, null, { renderer: "canvas" });
      fitWidth(option, el);
      chart.setOption(option);
      chart.capplanSource = src;
      live.add(chart);
    });
  }

  // fitWidth adapts an option to the chart's width: the title wraps
  // within it (smaller on a phone) instead of being clipped, axis labels
  // that would run together are dropped, and on a narrow chart numbers
  // are written short (20K, 1.5M).
  var compact = new Intl.NumberFormat("en", { notation: "compact", maximumFractionDigits: 1 });
  function fitWidth(option, el) {
    var w = el.clientWidth || 600;
    var narrow = w < 560;
    [].concat(option.title || []).forEach(function (t) {
      t.textStyle = Object.assign({}, t.textStyle, { width: Math.max(120, w - 24), overflow: "break", fontSize: narrow ? 14 : 18 });
    });
    [].concat(option.xAxis || [], option.yAxis || []).forEach(function (ax) {
      ax.axisLabel = Object.assign({}, ax.axisLabel, { hideOverlap: true });
      if (narrow && ax.type === "value") {
        ax.axisLabel.formatter = function (v) {
          return compact.format(v);
        };
      }
    });
    return option;
  }

  function disposeCharts(root) {
    if (typeof echarts === "undefined") return;
    chartsIn(root).forEach(function (el) {
      var c = echarts.getInstanceByDom(el);
      if (c) {
        live.delete(c);
        c.dispose();
      }
    });
  }

  function resizeCharts() {
    live.forEach(function (c) {
      if (c.isDisposed()) {
        live.delete(c);
      } else {
        c.resize();
        var el = c.getDom();
        var opt = c.getOption();
        c.setOption(fitWidth({ title: opt.title, xAxis: opt.xAxis, yAxis: opt.yAxis }, el));
      }
    });
  }

  window.addEventListener("resize", resizeCharts);
  window.addEventListener("beforeprint", resizeCharts);
  window.addEventListener("afterprint", resizeCharts);

  // htmx fires htmx:load for each element it adds (and once for <body> at
  // start-up); htmx:beforeCleanupElement for each element it is about to
  // remove. initCharts skips an element already drawn from the same option,
  // so seeing an element twice is harmless.
  document.addEventListener("htmx:load", function (e) {
    initCharts(e.target);
  });
  document.addEventListener("htmx:beforeCleanupElement", function (e) {
    disposeCharts(e.target);
  });

  // ---- Uploads ----

  function targetOf(form) {
    var sel = form.getAttribute("data-target");
    if (!sel) return form;
    var el = document.getElementById(sel.replace(/^#/, ""));
    if (el) return el;
    try {
      return document.querySelector(sel) || form;
    } catch (err) {
      return form;
    }
  }

  function showError(target, message) {
    var p = document.createElement("p");
    p.className = "flash error";
    p.setAttribute("role", "alert");
    p.textContent = message;
    target.replaceChildren(p);
  }

  // swapInto puts the response into target; through htmx when it is on
  // the page, so that out-of-band parts of the response (the other
  // sections an import changes) are swapped in as well.
  function swapInto(target, html) {
    disposeCharts(target);
    if (typeof htmx !== "undefined" && htmx.swap) {
      htmx.swap(target, html, { swapStyle: "innerHTML" });
    } else {
      target.innerHTML = html;
    }
    initCharts(target);
    initUploads(target);
  }

  function send(form) {
    var input = form.querySelector('input[type="file"]');
    if (!input || input.files.length === 0) return;
    var bar = form.querySelector("progress");
    var target = targetOf(form);
    var data = new FormData(form);

    var xhr = new XMLHttpRequest();
    xhr.open((form.getAttribute("method") || "POST").toUpperCase(), form.action);
    // Ask for the partial, as htmx would.
    xhr.setRequestHeader("HX-Request", "true");
    if (target.id) xhr.setRequestHeader("HX-Target", target.id);
    // The page it is sent from: the answer refreshes that page's sections.
    xhr.setRequestHeader("HX-Current-URL", location.href);

    if (bar) {
      bar.hidden = false;
      bar.max = 100;
      bar.value = 0;
    }
    form.setAttribute("aria-busy", "true");
    input.disabled = true;

    xhr.upload.addEventListener("progress", function (e) {
      if (bar && e.lengthComputable) {
        bar.value = Math.round((e.loaded / e.total) * 100);
      }
    });

    function done() {
      form.removeAttribute("aria-busy");
      input.disabled = false;
      input.value = "";
      if (bar) bar.value = 100;
    }

    xhr.addEventListener("load", function () {
      done();
      var redirect = xhr.getResponseHeader("HX-Redirect");
      if (redirect) {
        window.location.assign(redirect);
        return;
      }
      var type = xhr.getResponseHeader("Content-Type") || "";
      if (xhr.status >= 200 && xhr.status < 300) {
        syncVersion(xhr);
        swapInto(target, xhr.responseText);
      } else if (type.indexOf("text/html") === 0 && xhr.responseText) {
        // The server's own error partial.
        swapInto(target, xhr.responseText);
      } else {
        showError(target, xhr.responseText.trim() || "Upload failed: HTTP " + xhr.status);
      }
    });
    xhr.addEventListener("error", function () {
      done();
      showError(target, "Upload failed: the server could not be reached.");
    });
    xhr.addEventListener("abort", function () {
      done();
      showError(target, "Upload cancelled.");
    });

    xhr.send(data);
  }

  function setUpUpload(form) {
    if (form.dataset.uploadReady) return;
    form.dataset.uploadReady = "1";
    var input = form.querySelector('input[type="file"]');
    if (!input) return;
    var zone = form.querySelector(".dropzone") || form;
    var bar = form.querySelector("progress");
    if (bar && !bar.hasAttribute("value")) bar.hidden = true;

    input.addEventListener("change", function () {
      send(form);
    });
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      send(form);
    });

    // dragenter/dragleave fire for every child; count them.
    var depth = 0;
    zone.addEventListener("dragenter", function (e) {
      e.preventDefault();
      depth++;
      zone.classList.add("dragover");
    });
    zone.addEventListener("dragover", function (e) {
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = "copy";
    });
    zone.addEventListener("dragleave", function () {
      depth = Math.max(0, depth - 1);
      if (depth === 0) zone.classList.remove("dragover");
    });
    zone.addEventListener("drop", function (e) {
      e.preventDefault();
      depth = 0;
      zone.classList.remove("dragover");
      if (!e.dataTransfer || e.dataTransfer.files.length === 0) return;
      input.files = e.dataTransfer.files;
      send(form);
    });
  }

  function initUploads(root) {
    if (!root || root.nodeType !== 1) return;
    if (root.matches("form[data-upload]")) setUpUpload(root);
    root.querySelectorAll("form[data-upload]").forEach(setUpUpload);
  }

  document.addEventListener("htmx:load", function (e) {
    initUploads(e.target);
    openedEarly(e.target);
  });

  // A lazy part loads when its details is first opened ("toggle once from:
  // closest details"). A details opened before htmx processed the part (a
  // click on a section just swapped in) gave its toggle to nobody: load such
  // parts now, once.
  function openedEarly(root) {
    if (!root || root.nodeType !== 1 || typeof htmx === "undefined") return;
    var parts = root.matches(".lazy-part") ? [root] : [].slice.call(root.querySelectorAll(".lazy-part"));
    parts.forEach(function (part) {
      var d = part.closest("details");
      if (d && d.open) htmx.trigger(d, "toggle");
    });
  }

  // ---- Start-up (also without htmx on the page) ----

  function start() {
    initCharts(document.body);
    initUploads(document.body);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();

// Errors htmx does not swap (403, 404, 500, a lost connection) are shown
// at the top of the page with the server's own text.
(function () {
  "use strict";
  function show(text) {
    var main = document.getElementById("main");
    if (!main) return;
    var box = document.getElementById("htmx-error");
    if (!box) {
      box = document.createElement("p");
      box.id = "htmx-error";
      box.className = "flash error";
      box.setAttribute("role", "alert");
      main.insertBefore(box, main.firstChild);
    }
    box.textContent = text;
    box.scrollIntoView({ block: "nearest" });
  }
  document.addEventListener("htmx:responseError", function (e) {
    var xhr = e.detail.xhr;
    var text = "";
    try {
      var doc = new DOMParser().parseFromString(xhr.responseText, "text/html");
      var err = doc.querySelector("[data-testid=error]");
      text = err ? err.textContent : "";
    } catch (_) {}
    show(text || "The server refused the request (" + xhr.status + ").");
  });
  document.addEventListener("htmx:sendError", function () {
    show("The server could not be reached. Check the connection and try again.");
  });
})();

// After a successful change to a report, the server names the report's new
// version in X-Report-Version; every form on the page that carries the
// version it was opened at moves to it, so the next save from another
// section is not refused as stale. Refusals (409) carry no header: there
// the user must look at what changed first.
function syncVersion(xhr) {
  var v = xhr.getResponseHeader("X-Report-Version");
  if (!v) return;
  document.querySelectorAll('input[type=hidden][name="version"]').forEach(function (el) {
    el.value = v;
  });
}
document.addEventListener("htmx:afterRequest", function (e) {
  if (e.detail.successful) syncVersion(e.detail.xhr);
});

// Focus after a swap (docs/ARCHITECTURE.md, "Pages in the browser"). When
// htmx replaces the part that held the focus (an "Edit" button, a form's
// submit button), the browser drops the focus to <body> and the next Tab
// starts from the top. After a swap aimed at a part of the page: a refused
// form puts the focus on its first invalid field (on its error summary
// when no field is marked); a form fetched to edit, on its first field;
// a section saved, on its heading, so Tab carries on from there. A page
// opened with errors, or at #anchor (a cancel link, a redirect after
// saving), does the same.
(function () {
  "use strict";
  var FIELD = 'input:not([type=hidden]):not([disabled]), select:not([disabled]), textarea:not([disabled])';

  function shown(el) {
    return !!el && el.getClientRects().length > 0;
  }

  function focusSection(el) {
    var target = el.querySelector("h1, h2, h3") || el;
    if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
    target.focus();
  }

  // refused focuses the first invalid field under root, else its error
  // summary; false when root shows no refusal.
  function refused(root) {
    var summary = root.matches('[data-testid="form-errors"]') ? root : root.querySelector('[data-testid="form-errors"]');
    if (!summary) return false;
    var bad = root.querySelectorAll('[aria-invalid="true"]');
    for (var i = 0; i < bad.length; i++) {
      if (shown(bad[i])) {
        bad[i].focus();
        return true;
      }
    }
    summary.focus();
    return true;
  }

  function firstField(root) {
    var fields = root.querySelectorAll(FIELD);
    for (var i = 0; i < fields.length; i++) {
      if (shown(fields[i])) {
        fields[i].focus();
        return true;
      }
    }
    return false;
  }

  function lost() {
    var a = document.activeElement;
    return !a || a === document.body || !a.isConnected;
  }

  document.addEventListener("htmx:afterSettle", function (e) {
    var root = e.target;
    if (!root || root.nodeType !== 1 || root === document.body || !root.isConnected) return;
    // Only the part the request aimed at, not the parts swapped out of
    // band (with outerHTML the target named is the element replaced, so
    // its id is the one to match).
    var aim = e.detail && e.detail.target;
    if (aim && aim !== root && !(aim.id && aim.id === root.id)) return;
    if (refused(root) || !lost()) return;
    var cfg = e.detail && e.detail.requestConfig;
    var verb = cfg && cfg.verb ? String(cfg.verb).toLowerCase() : "";
    if (verb === "get" && firstField(root)) return;
    focusSection(root);
  });

  function onLoad() {
    if (refused(document.getElementById("main") || document.body)) return;
    if (!location.hash || !lost()) return;
    var el = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (el && el.id !== "main") focusSection(el);
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", onLoad);
  } else {
    onLoad();
  }
})();

// A box that scrolls sideways (a wide table's .table-scroll, or on a
// narrow screen a table that became its own scroll box) can be reached
// with the keyboard and scrolled with the arrow keys: it takes tabindex 0
// while it is wider than it shows and holds nothing else to focus.
(function () {
  "use strict";
  var BOXES = ".table-scroll, main table";
  var FOCUSABLE = "a[href], button, input, select, textarea, summary, [tabindex]";
  function mark(root) {
    var boxes = [];
    if (root.matches && root.matches(BOXES)) boxes.push(root);
    root.querySelectorAll(BOXES).forEach(function (b) { boxes.push(b); });
    boxes.forEach(function (b) {
      // A box in a section the browser has not laid out yet (off screen,
      // content-visibility: auto) is measured when the section is, below:
      // measuring it now would lay the section out for nothing.
      if (b.checkVisibility && !b.checkVisibility({ contentVisibilityAuto: true })) return;
      var scrolls = b.scrollWidth > b.clientWidth + 1 && getComputedStyle(b).overflowX !== "visible";
      if (scrolls && !b.hasAttribute("tabindex") && !b.querySelector(FOCUSABLE)) {
        b.setAttribute("tabindex", "0");
        b.setAttribute("data-scroll-focus", "");
      } else if (!scrolls && b.hasAttribute("data-scroll-focus")) {
        b.removeAttribute("tabindex");
        b.removeAttribute("data-scroll-focus");
      }
    });
  }
  var pending = 0;
  function all() {
    pending = 0;
    mark(document.body);
  }
  window.addEventListener("resize", function () {
    if (!pending) pending = requestAnimationFrame(all);
  });
  document.addEventListener("contentvisibilityautostatechange", function (e) {
    if (!e.skipped && e.target.nodeType === 1) mark(e.target);
  }, true);
  document.addEventListener("htmx:load", function (e) {
    // The whole page is marked once it has loaded (below): measuring a
    // box lays the page out, which must not hold up its first paint.
    if (e.target !== document.body) mark(e.target);
  });
  if (document.readyState === "complete") {
    all();
  } else {
    window.addEventListener("load", function () { setTimeout(all, 0); }, { once: true });
  }
})();

// The report in steps: a link made for the one-page report
// (/reports/1#matrix) lands on the overview; when its anchor is on
// another step's page, go there (data-step-anchors lists each anchor, or
// prefix ending in "-", with its step).
(function () {
  "use strict";
  function go() {
    var map = document.querySelector("[data-step-anchors]");
    if (!map || !location.hash) return;
    var name = decodeURIComponent(location.hash.slice(1));
    if (document.getElementById(name)) return;
    var pairs = map.getAttribute("data-step-anchors").split(" ");
    for (var i = 0; i < pairs.length; i++) {
      var kv = pairs[i].split("=");
      var a = kv[0];
      if (a === name || (a.slice(-1) === "-" && name.indexOf(a) === 0)) {
        location.replace(map.getAttribute("data-report") + "/" + kv[1] + location.hash);
        return;
      }
    }
  }
  go();
  window.addEventListener("hashchange", go);
})();

// A link to a folded form (the headline's and the path's link to the row
// whose figures are missing, /reports/1/results#observed-12) lands with it
// open: the details the address names, and every details around it, open
// (a lazy part in it then loads), and it is scrolled into view.
(function () {
  "use strict";
  function reveal() {
    if (!location.hash) return;
    var el = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (!el) return;
    var d = el.tagName === "DETAILS" ? el : el.closest("details");
    var opened = false;
    while (d) {
      if (!d.open) {
        d.open = true;
        opened = true;
      }
      d = d.parentElement && d.parentElement.closest("details");
    }
    if (!opened) return;
    el.scrollIntoView({ block: "start" });
    // The sections above are laid out when they come into view
    // (content-visibility) and the form's lazy part loads after this:
    // either can move the form, so it is brought back into view once
    // the page has loaded and once its part has settled, unless the
    // reader has scrolled away meanwhile.
    var top = window.scrollY;
    var again = function () {
      if (Math.abs(window.scrollY - top) > 2 && !moved(el)) return;
      el.scrollIntoView({ block: "start" });
      top = window.scrollY;
    };
    if (document.readyState === "complete") {
      setTimeout(again, 0);
    } else {
      window.addEventListener("load", function () { setTimeout(again, 0); }, { once: true });
    }
    var settled = function (e) {
      if (!el.contains(e.target)) return;
      document.removeEventListener("htmx:afterSettle", settled);
      again();
    };
    document.addEventListener("htmx:afterSettle", settled);
  }
  // moved is true when el is no longer where it was brought: out of view.
  function moved(el) {
    var r = el.getBoundingClientRect();
    return r.top < 0 || r.top > window.innerHeight;
  }
  reveal();
  window.addEventListener("hashchange", reveal);
  // A link to the anchor already in the address changes no hash.
  document.addEventListener("click", function (e) {
    var a = e.target && e.target.closest && e.target.closest("a[href*='#']");
    if (!a || a.pathname !== location.pathname || a.hash !== location.hash) return;
    setTimeout(reveal, 0);
  });
})();

// The self-hosted cost form shows the inputs of the chosen equipment mode
// only, and no power inputs when the rent includes power. The server
// renders the rows of the saved (or typed) choice; here a new choice
// shows its rows at once. Hidden rows stay in the form and are saved as
// they are. A row holding a refusal stays shown.
(function () {
  "use strict";
  var rented = { rent: true, committed: true, spot: true };
  function apply(form) {
    var modeField = form.querySelector('[name="self_hosted.equipment_mode"]');
    if (!modeField) return;
    var mode = modeField.value || "purchase";
    var power = form.querySelector('[name="self_hosted.rent_includes_power"]');
    var inRent = !!rented[mode] && !!power && power.value === "yes";
    var rows = form.querySelectorAll("[data-modes], [data-power]");
    for (var i = 0; i < rows.length; i++) {
      var el = rows[i];
      var modes = el.getAttribute("data-modes");
      var show = (!modes || modes.split(" ").indexOf(mode) >= 0) && !(el.hasAttribute("data-power") && inRent);
      if (el.querySelector('[aria-invalid="true"]')) show = true;
      el.hidden = !show;
    }
    var note = form.querySelector('[data-testid="power-in-rent"]');
    if (note) note.hidden = !inRent;
  }
  document.addEventListener("change", function (e) {
    var t = e.target;
    if (!t || (t.name !== "self_hosted.equipment_mode" && t.name !== "self_hosted.rent_includes_power")) return;
    var form = t.closest("form");
    if (form) apply(form);
  });
})();

// The matrix's columns: "Show all N columns" and "Show the objective's
// columns only" are links (?cols=all) that work without this script; here
// they switch the columns in place and put the choice in the address, so
// a reload keeps it. A matrix swapped in after a save takes the choice
// the address holds.
(function () {
  "use strict";
  function wanted() {
    return new URLSearchParams(location.search).get("cols") === "all";
  }
  function apply(root) {
    var all = wanted();
    var wraps = [];
    if (root.matches && root.matches(".matrix-wrap")) wraps.push(root);
    if (root.querySelectorAll) root.querySelectorAll(".matrix-wrap").forEach(function (w) { wraps.push(w); });
    wraps.forEach(function (w) { w.classList.toggle("all-cols", all); });
  }
  document.addEventListener("click", function (e) {
    var a = e.target.closest && e.target.closest("a[data-matrix-cols]");
    if (!a || e.defaultPrevented || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
    var to = new URL(a.href, location.href);
    if (to.pathname !== location.pathname) return; // another page: follow the link
    e.preventDefault();
    var u = new URL(location.href);
    if (a.getAttribute("data-matrix-cols") === "all") {
      u.searchParams.set("cols", "all");
    } else {
      u.searchParams.delete("cols");
    }
    history.replaceState(history.state, "", u.pathname + u.search + u.hash);
    apply(document.body);
    var other = document.querySelector(a.getAttribute("data-matrix-cols") === "all" ? "a[data-matrix-cols=objective]" : "a[data-matrix-cols=all]");
    if (other) other.focus();
  });
  document.addEventListener("htmx:load", function (e) { apply(e.target); });
})();

// Folds on paper and in the print view. The print view
// (/reports/:id/print) is the whole report for a reviewer, so every fold
// that holds reading matter is open there, in the page and in any part
// swapped into it; a fold holding a form (or the placeholder that fetches
// one) stays as it is. Printing any page opens the same folds for the
// paper and closes them again afterwards.
(function () {
  "use strict";
  function readable(d) {
    return !d.open && !d.querySelector("form, .lazy-part");
  }
  function openFolds(root) {
    var opened = [];
    var all = [];
    if (root.matches && root.matches("details")) all.push(root);
    if (root.querySelectorAll) root.querySelectorAll("details").forEach(function (d) { all.push(d); });
    all.forEach(function (d) {
      if (readable(d)) {
        d.open = true;
        opened.push(d);
      }
    });
    return opened;
  }
  document.addEventListener("htmx:load", function (e) {
    if (document.querySelector(".print-step")) openFolds(e.target);
  });
  var forPaper = [];
  window.addEventListener("beforeprint", function () { forPaper = openFolds(document.body); });
  window.addEventListener("afterprint", function () {
    forPaper.forEach(function (d) { d.open = false; });
    forPaper = [];
  });
})();

// A term is linked to the glossary on its first use on the page
// (view.Term: a.term with data-term). A part htmx swaps in (a section
// after a save, a lazy part) is rendered on its own and links its terms
// again; of the links to a term it brings, every one after the page's
// first link to that term becomes its plain text.
(function () {
  "use strict";
  function unlinkRepeats(root) {
    if (!root || !root.querySelectorAll) return;
    var terms = {};
    if (root.matches && root.matches("a[data-term]")) terms[root.dataset.term] = true;
    root.querySelectorAll("a[data-term]").forEach(function (a) { terms[a.dataset.term] = true; });
    Object.keys(terms).forEach(function (term) {
      var links = document.querySelectorAll('a[data-term="' + CSS.escape(term) + '"]');
      for (var i = 1; i < links.length; i++) {
        links[i].replaceWith(document.createTextNode(links[i].textContent));
      }
    });
  }
  document.addEventListener("htmx:load", function (e) { unlinkRepeats(e.target); });
})();
