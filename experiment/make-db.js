'use strict';
// The json-server database: N posts with comments (make-db.js FILE N).
const fs = require('node:fs');
const n = Number(process.argv[3] || 300);
const posts = [];
const comments = [];
for (let i = 1; i <= n; i++) {
  posts.push({ id: i, title: `Post ${i}`, author: `user${i % 17}`, body: 'lorem ipsum '.repeat(20), tags: ['node', 'perf', String(i % 5)] });
  comments.push({ id: i, postId: i, body: `comment ${i}` });
}
fs.writeFileSync(process.argv[2], JSON.stringify({ posts, comments, profile: { name: 'bench' } }));
