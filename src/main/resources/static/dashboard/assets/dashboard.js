// Regina dashboard: confirmations, select-all, and the overview's live charts (inline SVG, no library).
(function () {
  'use strict';

  document.addEventListener('submit', function (event) {
    var button = event.submitter;
    var message = (button && button.getAttribute('data-confirm')) || event.target.getAttribute('data-confirm');
    if (message && !window.confirm(message)) {
      event.preventDefault();
    }
  });

  document.addEventListener('change', function (event) {
    var name = event.target.getAttribute('data-select-all');
    if (!name) {
      return;
    }
    document.querySelectorAll('input[type=checkbox][name="' + name + '"]').forEach(function (box) {
      box.checked = event.target.checked;
    });
  });

  var SVG = 'http://www.w3.org/2000/svg';
  var W = 600, H = 160, PAD = 4;

  function el(name, attrs) {
    var node = document.createElementNS(SVG, name);
    Object.keys(attrs).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    return node;
  }

  function chart(svg, samples, series, windowMs) {
    while (svg.firstChild) { svg.removeChild(svg.firstChild); }
    var end = samples.length ? samples[samples.length - 1].at : Date.now();
    var start = end - windowMs;
    var max = 0;
    samples.forEach(function (s) { series.forEach(function (key) { max = Math.max(max, s[key]); }); });
    var top = max > 0 ? max * 1.1 : 1;
    [0.25, 0.5, 0.75].forEach(function (f) {
      svg.appendChild(el('line', {x1: 0, x2: W, y1: H * f, y2: H * f, 'class': 'grid'}));
    });
    series.forEach(function (key) {
      var points = samples.map(function (s) {
        var x = Math.max(0, (s.at - start) / windowMs * W);
        var y = H - PAD - (s[key] / top) * (H - 2 * PAD);
        return x.toFixed(1) + ',' + y.toFixed(1);
      }).join(' ');
      if (points) {
        svg.appendChild(el('polyline', {points: points, 'class': 'line ' + key}));
      }
    });
    var label = el('text', {x: 4, y: 14, 'class': 'axis'});
    label.textContent = 'max ' + (max >= 10 ? Math.round(max) : max.toFixed(2));
    svg.appendChild(label);
    var last = samples.length ? samples[samples.length - 1] : null;
    if (last) {
      var now = el('text', {x: W - 4, y: 14, 'class': 'axis', 'text-anchor': 'end'});
      now.textContent = series.map(function (key) {
        var v = last[key];
        return key + ' ' + (v >= 10 || v === Math.round(v) ? Math.round(v) : v.toFixed(2));
      }).join('  ');
      svg.appendChild(now);
    }
  }

  function render(data) {
    document.querySelectorAll('[data-total]').forEach(function (node) {
      node.textContent = data.totals[node.getAttribute('data-total')];
    });
    document.querySelectorAll('[data-cluster]').forEach(function (node) {
      var value = data.cluster[node.getAttribute('data-cluster')];
      node.textContent = value === null || value === undefined ? 'none known' : value;
    });
    var s = data.samples;
    chart(document.getElementById('chart-throughput'), s, ['pushed', 'popped', 'acked'], data.windowMs);
    chart(document.getElementById('chart-depth'), s, ['pending', 'leased', 'delayed'], data.windowMs);
    chart(document.getElementById('chart-lag'), s, ['lag'], data.windowMs);
    chart(document.getElementById('chart-failed'), s, ['failed'], data.windowMs);
  }

  document.addEventListener('DOMContentLoaded', function () {
    var overview = document.getElementById('overview');
    if (!overview || !window.EventSource) {
      return;
    }
    var state = document.getElementById('live-state');
    var source = new EventSource(overview.getAttribute('data-stream'));
    source.addEventListener('overview', function (event) {
      render(JSON.parse(event.data));
      state.textContent = 'live, updated ' + new Date().toLocaleTimeString();
      overview.setAttribute('data-updates', String(Number(overview.getAttribute('data-updates') || 0) + 1));
    });
    source.onerror = function () { state.textContent = 'reconnecting…'; };
  });
}());
