// SPDX-License-Identifier: MIT
// Plays a Colibri recording (docs/record.md: JSON lines; the header, shapes once, a line
// per frame, an end line). Bodies are drawn from their shapes' pieces: hull faces as flat
// polygons, spheres and capsules as meshes; a body in a colliding pair is pure red
// (unlit, so the colour on screen is exactly #ff0000: tests/viewer_test.py looks for it),
// yellow in the frame its pair began, cyan in the frame one ended. Colour keys are in
// index.html's legend.
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';

const COLOURS = { body: 0x7f93ad, fixed: 0x6b6b6b, pair: 0xff0000, began: 0xffff00, ended: 0x00ffff };
const $ = (id) => document.getElementById(id);
const status = (text) => { $('status').textContent = text; };

// ---- the recording ----

// Parses the text of a recording: { header, shapes: Map(number -> line), frames: [line] }.
export function parseRecording(text) {
  const rec = { header: null, shapes: new Map(), frames: [], ended: false };
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === '') continue;
    let o;
    try {
      o = JSON.parse(line);
    } catch (e) {
      // A file still being written may end in a partial line: keep what came before.
      if (i === lines.length - 1 || lines.slice(i + 1).every((l) => l.trim() === '')) break;
      throw new Error(`line ${i + 1} is not JSON: ${e.message}`);
    }
    if (i === 0 || rec.header === null) {
      if (o.format !== 'colibri-record') throw new Error('not a Colibri recording (no "format":"colibri-record" header)');
      if (o.version !== 1) throw new Error(`recording version ${o.version}: this viewer reads version 1`);
      rec.header = o;
    } else if ('shape' in o) {
      rec.shapes.set(o.shape, o);
    } else if ('frame' in o) {
      rec.frames.push(o);
    } else if (o.end) {
      rec.ended = true;
    }
  }
  if (rec.header === null) throw new Error('empty file');
  return rec;
}

// ---- geometry ----

function hullGeometry(piece) {
  const v = piece.vertices;
  const pos = [];
  for (const face of piece.faces) {
    // faces are convex and counter-clockwise seen from outside: a fan keeps both
    for (let k = 1; k + 1 < face.length; k++) {
      for (const idx of [face[0], face[k], face[k + 1]]) pos.push(v[3 * idx], v[3 * idx + 1], v[3 * idx + 2]);
    }
  }
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.Float32BufferAttribute(pos, 3));
  g.computeVertexNormals(); // non-indexed: one normal per face (flat shading)
  return g;
}

function meshGeometry(piece) {
  // a triangle soup, no orientation assumed: the materials are two-sided
  const v = piece.vertices, t = piece.triangles, pos = [];
  for (const idx of t) pos.push(v[3 * idx], v[3 * idx + 1], v[3 * idx + 2]);
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.Float32BufferAttribute(pos, 3));
  g.computeVertexNormals();
  return g;
}

function pieceGeometry(piece) {
  if (piece.kind === 'hull') return hullGeometry(piece);
  if (piece.kind === 'mesh') return meshGeometry(piece);
  if (piece.kind === 'sphere') {
    const g = new THREE.SphereGeometry(piece.radius, 24, 16);
    g.translate(piece.center[0], piece.center[1], piece.center[2]);
    return g;
  }
  if (piece.kind === 'capsule') {
    const a = new THREE.Vector3(...piece.ends[0]), b = new THREE.Vector3(...piece.ends[1]);
    const axis = b.clone().sub(a), length = axis.length();
    const g = new THREE.CapsuleGeometry(piece.radius, length, 8, 16); // along y, centred
    if (length > 0) g.applyQuaternion(new THREE.Quaternion().setFromUnitVectors(new THREE.Vector3(0, 1, 0), axis.normalize()));
    const mid = a.add(b).multiplyScalar(0.5);
    g.translate(mid.x, mid.y, mid.z);
    return g;
  }
  throw new Error(`unknown piece kind '${piece.kind}'`);
}

// ---- the scene ----

const view = $('view');
let renderer;
try {
  renderer = new THREE.WebGLRenderer({ antialias: false, preserveDrawingBuffer: true });
} catch (e) {
  status(`WebGL is not available here: ${e.message}`);
  throw e;
}
renderer.setPixelRatio(window.devicePixelRatio || 1);
view.appendChild(renderer.domElement);
const scene = new THREE.Scene();
scene.background = new THREE.Color(0x20242a);
scene.add(new THREE.HemisphereLight(0xffffff, 0x404050, 1.6));
const sun = new THREE.DirectionalLight(0xffffff, 1.6);
sun.position.set(0.5, 1, 0.8);
scene.add(sun);
const camera = new THREE.PerspectiveCamera(45, 1, 0.01, 1000);
const controls = new OrbitControls(camera, renderer.domElement);
controls.addEventListener('change', () => render());

const materials = {
  body: new THREE.MeshLambertMaterial({ color: COLOURS.body, side: THREE.DoubleSide }),
  fixed: new THREE.MeshLambertMaterial({ color: COLOURS.fixed, side: THREE.DoubleSide }),
  pair: new THREE.MeshBasicMaterial({ color: COLOURS.pair, side: THREE.DoubleSide }),
  began: new THREE.MeshBasicMaterial({ color: COLOURS.began, side: THREE.DoubleSide }),
  ended: new THREE.MeshBasicMaterial({ color: COLOURS.ended, side: THREE.DoubleSide }),
};
const edgeMaterial = new THREE.LineBasicMaterial({ color: 0x101010 });
const pairLineMaterial = new THREE.LineBasicMaterial({ color: COLOURS.pair });

let rec = null;
let shapeParts = new Map(); // shape number -> [{ geometry, edges }]
let bodies = new Map();     // body number -> { group, shape, meshes }
let pairLines = null;
let current = 0;
let playing = false;

function clearScene() {
  for (const b of bodies.values()) scene.remove(b.group);
  for (const parts of shapeParts.values()) for (const p of parts) { p.geometry.dispose(); p.edges.dispose(); }
  if (pairLines) { scene.remove(pairLines); pairLines.geometry.dispose(); pairLines = null; }
  bodies = new Map();
  shapeParts = new Map();
}

function partsOf(shapeNumber) {
  let parts = shapeParts.get(shapeNumber);
  if (!parts) {
    const line = rec.shapes.get(shapeNumber);
    if (!line) throw new Error(`a body uses shape ${shapeNumber}, which the recording never describes`);
    parts = line.pieces.map((piece) => {
      const geometry = pieceGeometry(piece);
      return { geometry, edges: new THREE.EdgesGeometry(geometry, 25) };
    });
    shapeParts.set(shapeNumber, parts);
  }
  return parts;
}

function bodyObject(number, shapeNumber) {
  let b = bodies.get(number);
  if (b && b.shape === shapeNumber) return b;
  if (b) scene.remove(b.group);
  const group = new THREE.Group();
  const meshes = [];
  for (const part of partsOf(shapeNumber)) {
    const mesh = new THREE.Mesh(part.geometry, materials.body);
    meshes.push(mesh);
    group.add(mesh);
    group.add(new THREE.LineSegments(part.edges, edgeMaterial));
  }
  scene.add(group);
  b = { group, shape: shapeNumber, meshes };
  bodies.set(number, b);
  return b;
}

// Points the camera at the box that holds every body over the recording (each widened by
// the reach of its own shape about its origin).
function frameCamera() {
  const reach = new Map();
  for (const n of rec.shapes.keys()) {
    let r = 0;
    for (const p of partsOf(n)) {
      p.geometry.computeBoundingSphere();
      const s = p.geometry.boundingSphere;
      r = Math.max(r, s.center.length() + s.radius);
    }
    reach.set(n, r);
  }
  const box = new THREE.Box3(), ball = new THREE.Sphere();
  let entries = 0;
  for (const f of rec.frames) {
    for (const b of f.bodies) {
      ball.set(new THREE.Vector3(b[3], b[4], b[5]), reach.get(b[1]) || 0);
      box.union(ball.getBoundingBox(new THREE.Box3()));
    }
    entries += f.bodies.length;
    if (entries > 2e6) break; // enough for a view of a large recording
  }
  if (box.isEmpty()) box.setFromCenterAndSize(new THREE.Vector3(), new THREE.Vector3(1, 1, 1));
  const centre = box.getCenter(new THREE.Vector3());
  const radius = Math.max(box.getSize(new THREE.Vector3()).length() / 2, 1e-9);
  const distance = radius / Math.sin((camera.fov * Math.PI) / 360);
  camera.position.copy(centre).add(new THREE.Vector3(0.35, 0.45, 1).normalize().multiplyScalar(distance));
  camera.near = distance / 1000;
  camera.far = distance * 10;
  camera.updateProjectionMatrix();
  controls.target.copy(centre);
  controls.update();
}

function showFrame(index) {
  if (!rec || rec.frames.length === 0) return;
  current = Math.max(0, Math.min(index, rec.frames.length - 1));
  const f = rec.frames[current];
  const state = new Map(); // body number -> 'pair' | 'began' | 'ended'
  for (const [a, b] of f.ended) { state.set(a, 'ended'); state.set(b, 'ended'); }
  for (const [a, b] of f.pairs) { state.set(a, 'pair'); state.set(b, 'pair'); }
  for (const [a, b] of f.began) { state.set(a, 'began'); state.set(b, 'began'); }
  const present = new Set();
  for (const [n, s, isStatic, x, y, z, qx, qy, qz, qw] of f.bodies) {
    const b = bodyObject(n, s);
    present.add(n);
    b.group.visible = true;
    b.group.position.set(x, y, z);
    b.group.quaternion.set(qx, qy, qz, qw);
    const m = materials[state.get(n) || (isStatic ? 'fixed' : 'body')];
    for (const mesh of b.meshes) mesh.material = m;
  }
  for (const [n, b] of bodies) if (!present.has(n)) b.group.visible = false;
  // a line between the origins of the bodies of each colliding pair
  const pos = [];
  for (const [a, b] of f.pairs) {
    const A = bodies.get(a), B = bodies.get(b);
    if (A && B && A.group.visible && B.group.visible) pos.push(...A.group.position.toArray(), ...B.group.position.toArray());
  }
  if (pairLines) { scene.remove(pairLines); pairLines.geometry.dispose(); }
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.Float32BufferAttribute(pos, 3));
  pairLines = new THREE.LineSegments(g, pairLineMaterial);
  scene.add(pairLines);

  $('slider').value = String(current);
  status(`frame ${current + 1} of ${rec.frames.length} (update ${f.frame}): ${f.bodies.length} bodies, ` +
         `${f.pairs.length} colliding pairs, ${f.began.length} began, ${f.ended.length} ended` +
         (rec.ended ? '' : ' (recording incomplete)'));
  render();
  document.body.dataset.frame = String(current);
}

function resize() {
  const w = view.clientWidth || window.innerWidth, h = view.clientHeight || window.innerHeight;
  renderer.setSize(w, h);
  camera.aspect = w / h;
  camera.updateProjectionMatrix();
  render();
}

function render() { renderer.render(scene, camera); }

function load(text, name, startFrame, autoplay) {
  clearScene();
  rec = parseRecording(text);
  $('slider').max = String(Math.max(0, rec.frames.length - 1));
  $('slider').disabled = rec.frames.length === 0;
  $('play').disabled = rec.frames.length === 0;
  frameCamera();
  const start = startFrame === 'last' ? rec.frames.length - 1 : Number(startFrame) || 0;
  if (rec.frames.length === 0) status(`${name}: no frames recorded`);
  showFrame(start);
  setPlaying(autoplay && rec.frames.length > 1);
  document.body.dataset.ready = '1';
}

function setPlaying(on) {
  playing = on;
  $('play').textContent = on ? 'pause' : 'play';
}

let last = 0;
function tick(t) {
  if (playing && rec && t - last >= 1000 / 30) {
    last = t;
    showFrame(current + 1 >= rec.frames.length ? 0 : current + 1);
  }
  requestAnimationFrame(tick);
}

// XMLHttpRequest rather than fetch: it also reads file:// pages' neighbours where the
// browser allows it (fetch never does).
function readUrl(url) {
  return new Promise((resolve, reject) => {
    const x = new XMLHttpRequest();
    x.open('GET', url);
    x.onload = () => (x.status === 200 || (x.status === 0 && x.responseText) ? resolve(x.responseText)
      : reject(new Error(`${url}: HTTP ${x.status}`)));
    x.onerror = () => reject(new Error(`${url}: cannot be read (from a file:// page the browser must allow file access)`));
    x.send();
  });
}

function fail(e) {
  status(`error: ${e.message}`);
  document.body.dataset.error = e.message;
  console.error(e);
}

$('file').addEventListener('change', () => {
  const file = $('file').files[0];
  if (!file) return;
  file.text().then((text) => load(text, file.name, 0, false)).catch(fail);
});
$('play').addEventListener('click', () => setPlaying(!playing));
$('slider').addEventListener('input', () => { setPlaying(false); showFrame(Number($('slider').value)); });
window.addEventListener('keydown', (e) => {
  if (!rec || e.target.tagName === 'INPUT' && e.target.type !== 'range') return;
  if (e.key === ' ') { setPlaying(!playing); e.preventDefault(); }
  if (e.key === 'ArrowRight') { setPlaying(false); showFrame(current + 1); }
  if (e.key === 'ArrowLeft') { setPlaying(false); showFrame(current - 1); }
});
window.addEventListener('resize', resize);
resize();
requestAnimationFrame(tick);

const params = new URLSearchParams(window.location.search);
if (params.get('rec')) {
  status(`loading ${params.get('rec')} ...`);
  readUrl(params.get('rec'))
    .then((text) => load(text, params.get('rec'), params.get('frame') || 0, params.get('play') !== '0'))
    .catch(fail);
}
