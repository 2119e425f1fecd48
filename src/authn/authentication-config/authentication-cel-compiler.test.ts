import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CelEnvironmentSet } from '../../cel/environment-set.js';
import { evaluate } from '../../cel/program.js';
import { AuthenticationCelCompiler, CelExpressionInvalid } from './authentication-cel-compiler.js';

const compiler = new AuthenticationCelCompiler(new CelEnvironmentSet());

describe('AuthenticationCelCompiler', () => {
  it('compiles claims expressions over claims and user rules over user', () => {
    const p = compiler.compileClaims("claims.sub + ':' + string(claims.n)", 'any');
    assert.equal(evaluate(p, { claims: { sub: 'a', n: 2 } }), 'a:2');
    const u = compiler.compileUser("user.username == 'a' && 'g' in user.groups");
    assert.equal(evaluate(u, { user: { username: 'a', uid: '', groups: ['g'], extra: {} } }), true);
  });

  it('refuses non-boolean validation rules and other variables, with kube texts', () => {
    const detail = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        assert.ok(e instanceof CelExpressionInvalid);
        return e.detail;
      }
      assert.fail('compiled');
    };
    assert.equal(
      detail(() => compiler.compileClaims('claims.admin', 'bool')),
      'must evaluate to bool',
    );
    assert.equal(
      detail(() => compiler.compileUser('user.groups')),
      'must evaluate to bool',
    );
    assert.match(
      detail(() => compiler.compileClaims('user.username', 'any')),
      /^compilation failed: ERROR: <input>:1:1: undeclared reference to 'user'/,
    );
  });
});
