import { describe, expect, it } from 'vitest';
import { focusName, inputNames, parseFormDefinition, textOf } from '../../src/lib/form/schema';
import { cardFields, cardFill, postedFromData } from '../../src/lib/form/prefill';
import { contactLock, nationalOf } from '../../src/lib/form/contact';
import { fitWithin, isImageType, base64OfDataUrl, looksLikeImage } from '../../src/lib/form/image';
import { fieldsFor, formPagePath, lookupPagePath, resolveFormPage } from '../../src/lib/form/page';
import { variantByName } from '../../src/lib/core/variants';

const L = (zh: string, en: string) => ({ zh, en });

describe('form definition schema', () => {
  it('keeps good fields, drops bad ones with a reason', () => {
    const def = parseFormDefinition([
      { key: 'uname', type: 'text', required: true, label: L('姓名', 'Name') },
      { key: 'uname', type: 'text', label: L('重复', 'Again') },
      { key: '1bad', type: 'text', label: L('坏', 'Bad') },
      { key: 'x', type: 'select', label: L('空', 'Empty') },
      { key: 'y', type: 'text', label: { thai: 'ชื่อ' } },
      { key: 'update', type: 'text', label: L('保留', 'Reserved') },
      { key: 'p2', type: 'phone', label: L('电话', 'Phone') },
      { key: 'p3', type: 'phone', label: L('电话', 'Phone') },
      { key: 'size', type: 'radio', label: L('尺码', 'Size'), options: [{ value: 1, label: L('一', 'One') }] },
    ]);
    expect(def.fields.map((f) => f.key)).toEqual(['uname', 'p2', 'size']);
    expect(def.fields[2]?.options[0]?.value).toBe('1');
    expect(def.problems).toHaveLength(6);
    expect(def.fields[0]).toMatchObject({ required: true, maxLength: 200, other: false, options: [] });
  });

  it('reads odd customerForm values as no fields', () => {
    expect(parseFormDefinition(null)).toEqual({ fields: [], problems: [] });
    expect(parseFormDefinition('x').fields).toEqual([]);
    expect(parseFormDefinition({ fields: [{ key: 'a', type: 'text', label: L('甲', 'A') }] }).fields).toHaveLength(1);
  });

  it('labels fall back: the language, then zh for Chinese pages and en for the others', () => {
    expect(textOf(L('姓名', 'Name'), 'zh')).toBe('姓名');
    expect(textOf(L('姓名', 'Name'), 'tw')).toBe('姓名');
    expect(textOf(L('姓名', 'Name'), 'thai')).toBe('Name');
    expect(textOf({ zh: '姓名', en: 'Name', thai: 'ชื่อ' }, 'thai')).toBe('ชื่อ');
    expect(textOf({ zh: '姓名' }, 'en')).toBe('姓名');
  });

  it('names the inputs each field posts and the one to focus', () => {
    const [cb, id] = parseFormDefinition([
      {
        key: 'p',
        type: 'checkbox',
        other: true,
        label: L('目的', 'Purpose'),
        options: [{ value: 'a', label: L('甲', 'A') }],
      },
      { key: 'ucardid', type: 'idDocument', label: L('证件', 'ID') },
    ]).fields;
    if (!cb || !id) throw new Error('parse');
    expect(inputNames(cb)).toEqual(['p.0', 'p.__other', 'p.other']);
    expect(focusName(cb)).toBe('p.0');
    expect(inputNames(id)).toEqual(['ucardid.type', 'ucardid']);
  });
});

describe('prefill, contact lock, business card', () => {
  const { fields } = parseFormDefinition([
    { key: 'uname', type: 'text', label: L('姓名', 'Name') },
    { key: 'email', type: 'email', label: L('邮箱', 'E-mail') },
    { key: 'phone', type: 'phone', label: L('电话', 'Phone') },
    {
      key: 'industry',
      type: 'select',
      other: true,
      label: L('行业', 'Industry'),
      options: [{ value: 'Energy', label: L('能源', 'Energy') }],
    },
    {
      key: 'visitDays',
      type: 'checkbox',
      other: true,
      label: L('日期', 'Days'),
      options: [
        { value: 'day1', label: L('一', '1') },
        { value: 'day2', label: L('二', '2') },
      ],
    },
    { key: 'ucardid', type: 'idDocument', label: L('证件', 'ID') },
  ]);

  it('turns saved (data-shaped) values into input values', () => {
    expect(
      postedFromData(fields, {
        industry: 'Energy',
        visitDays: ['day2', 'boat'],
        uname: 'Li',
        ucardid: 'E1',
        cardType: 2,
        phone: '812345678',
        areaCode: '+66',
        junk: 1,
      }),
    ).toEqual({
      uname: 'Li',
      industry: 'Energy',
      'visitDays.1': 'day2',
      'visitDays.__other': '__other',
      'visitDays.other': 'boat',
      ucardid: 'E1',
      'ucardid.type': '2',
      phone: '812345678',
      'phone.areaCode': '+66',
    });
    expect(postedFromData(fields, { industry: 'Mining' })).toEqual({ industry: '__other', 'industry.other': 'Mining' });
  });

  it('locks the verified contact of the same expo only', () => {
    expect(contactLock(fields, { expoId: 1, contact: 'a@b.test', checkType: 2 }, 1)).toEqual({
      values: { email: 'a@b.test' },
      locked: ['email'],
      data: { email: 'a@b.test', checkType: 2 },
    });
    expect(contactLock(fields, { expoId: 1, contact: '+66812345678', checkType: 1, areaCode: '+66' }, 1)).toEqual({
      values: { phone: '812345678', 'phone.areaCode': '+66' },
      locked: ['phone', 'phone.areaCode'],
      data: { phone: '812345678', areaCode: '+66', checkType: 1 },
    });
    expect(contactLock(fields, { expoId: 2, contact: 'a@b.test', checkType: 2 }, 1)).toBeNull();
    expect(contactLock(fields, null, 1)).toBeNull();
    // A bypass lookup proved no contact: nothing is filled in or sent (issue 9 hole 10).
    expect(contactLock(fields, { expoId: 1, contact: 'a@b.test', checkType: 2, bypass: true }, 1)).toBeNull();
    expect(nationalOf('+8613800138000', '+86')).toBe('13800138000');
  });

  it('maps the OCR result of spec §3 and fills only open text fields', () => {
    const card = cardFields({
      success: true,
      uiName: 'Li Lei',
      uiCompany: 'Demo',
      uiEmail1: 'li@x.test',
      uiPhone1: '+66 81 234 5678',
      uiDepa: 'Sales',
      uiAddress: ' ',
      uiCompanyTitle: 'CEO',
    });
    expect(card).toEqual({
      name: 'Li Lei',
      company: 'Demo',
      email: 'li@x.test',
      phone: '+66 81 234 5678',
      dept: 'Sales',
      companyTitle: 'CEO',
    });
    expect(cardFields({ success: false, uiName: 'x' })).toEqual({});
    expect(cardFill(fields, card, ['email'])).toEqual({ uname: 'Li Lei', phone: '812345678', 'phone.areaCode': '+66' });
  });

  it('resizes within 750×750 and takes images only (spec §5)', () => {
    expect(fitWithin(3000, 2000)).toEqual({ width: 750, height: 500 });
    expect(fitWithin(600, 1200)).toEqual({ width: 375, height: 750 });
    expect(fitWithin(400, 300)).toEqual({ width: 400, height: 300 });
    expect(isImageType('image/jpeg')).toBe(true);
    expect(isImageType('application/pdf')).toBe(false);
    expect(base64OfDataUrl('data:image/jpeg;base64,/9j/AAA=')).toBe('/9j/AAA=');
    expect(looksLikeImage('/9j/4AAQ')).toBe(true);
    expect(looksLikeImage('JVBERi0')).toBe(false);
  });
});

describe('form pages (spec §2.1, §2.2, §2.3)', () => {
  const jakarta = variantByName('Jakarta');
  const bangkok = variantByName('Bangkok');
  it('resolves every form route to its kind', () => {
    expect(resolveFormPage('form', ['22001', 'MjAwMQ', 'visitor'], null)?.kind).toBe('form');
    expect(resolveFormPage('proving', ['22001', 'MjAwMQ', 'visitor'], null)?.kind).toBe('proving');
    expect(resolveFormPage('JakartaForm', ['21178', 'MTE3OA', 'visitor'], jakarta)?.kind).toBe('form');
    expect(resolveFormPage('JakartaSupplement', ['21178', 'MTE3OA', 'visitor'], jakarta)?.kind).toBe('supplement');
    expect(resolveFormPage('JakartaSecondForm', ['21178', 'MTE3OA', 'visitor'], jakarta)?.kind).toBe('secondForm');
    expect(resolveFormPage('BangkokSecondForm', ['21179', 'MTE3OQ', 'visitor'], bangkok)?.kind).toBe('secondForm');
    expect(resolveFormPage('SupplyBangkokForm', ['21179', 'MTE3OQ', 'visitor'], bangkok)?.kind).toBe('supplement');
    expect(resolveFormPage('repairForm', ['20785', 'Nzg1', 'visitor'], null)?.kind).toBe('repair');
  });

  it('refuses another expo, a repair form of another expo and bad params', () => {
    expect(resolveFormPage('JakartaForm', ['21179', 'MTE3OQ', 'visitor'], jakarta)).toBeNull();
    expect(resolveFormPage('repairForm', ['21308', 'MTMwOA', 'visitor'], null)).toBeNull();
    expect(resolveFormPage('form', ['x', 'MTMwOA'], null)).toBeNull();
    expect(resolveFormPage('form', [], null)).toBeNull();
  });

  it('links to itself and to the lookup page; the repair form asks the four repair fields, all required', () => {
    const page = resolveFormPage('JakartaSupplement', ['21178', 'MTE3OA', 'visitor'], jakarta);
    if (!page) throw new Error('page');
    expect(formPagePath(page)).toBe('/JakartaSupplement/21178/MTE3OA/visitor');
    expect(lookupPagePath(page)).toBe('/JakartaSearch/21178/MTE3OA/visitor');
    const fields = [
      { key: 'uname', required: false },
      { key: 'email', required: false },
      { key: 'ucardid', required: false },
    ];
    expect(fieldsFor('repair', fields)).toEqual([
      { key: 'uname', required: true },
      { key: 'ucardid', required: true },
    ]);
    expect(fieldsFor('form', fields)).toEqual(fields);
  });
});
