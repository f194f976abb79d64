import * as assert from 'node:assert/strict';
import { confirmationFor, confirms } from '../../../src/api/protectedCalls';

describe('protected environments ask before every call that is not a GET', () => {
  const production = { name: 'Production', protected: true };

  it('asks for POST, PUT, PATCH, DELETE and the rest, naming the environment and the call', () => {
    for (const method of ['POST', 'put', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']) {
      const question = confirmationFor(production, method, 'https://api.example.com/api/ordini');
      assert.ok(question, method);
      assert.match(question.message, /"Production"/);
      assert.match(question.message, new RegExp(method.toUpperCase()));
      assert.match(question.detail, new RegExp(`${method.toUpperCase()} https://api\\.example\\.com/api/ordini`));
      assert.equal(question.expected, 'Production');
      assert.match(question.typeToSend, /Type "Production" to send/);
    }
  });

  it('never asks for a GET, nor anywhere in an environment that is not protected', () => {
    assert.equal(confirmationFor(production, 'GET', 'https://x/'), undefined);
    assert.equal(confirmationFor(production, ' get ', 'https://x/'), undefined);
    assert.equal(confirmationFor({ name: 'Tests', protected: false }, 'DELETE', 'https://x/'), undefined);
  });

  it('only the environment\'s name typed sends: an empty Enter, another name or a cancel do not', () => {
    const question = confirmationFor(production, 'POST', 'https://x/')!;
    assert.equal(confirms(question, 'Production'), true);
    assert.equal(confirms(question, '  production '), true);
    for (const typed of [undefined, '', 'y', 'Produzione', 'Production!']) assert.equal(confirms(question, typed), false, String(typed));
  });
});
