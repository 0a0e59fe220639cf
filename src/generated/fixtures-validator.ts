/**
 * GENERATED FILE, DO NOT EDIT.
 * Source: fixtures/fixtures.schema.json, by Ajv's standalone code (scripts/generate-validators.ts). Regenerate with `npm run generate`;
 * `npm test` fails while this file differs from a fresh generation.
 */

// @ts-nocheck: Ajv's output, checked by Ajv's own tests and by ours, not typed.
import { FORMATS as runtimeFormats, ucs2length as runtimeUcs2length } from '../contract/validator-runtime.js';
import type { FixtureValidator } from '../contract/validators.js';
export const v0 = validate0;
const func0 = runtimeUcs2length;
const pattern0 = new RegExp("^[A-Za-z0-9._~+/-]+=*$", "u");
const formats0 = runtimeFormats["date-time"];

function validate0(data, {instancePath=""}={}){
/*# sourceURL="https://petstore.contract/fixtures.schema.json" */;
let vErrors = null;
if(data && typeof data == "object" && !Array.isArray(data)){
for(const key0 in data){
if(!(((((((key0 === "$schema") || (key0 === "description")) || (key0 === "apiKeys")) || (key0 === "petsDeprecated")) || (key0 === "petsSunset")) || (key0 === "pets")) || (key0 === "orders"))){
(vErrors ??= []).push({instancePath,keyword:"additionalProperties",params:{additionalProperty: key0}});
}
}
if(data.$schema !== undefined){
if(typeof data.$schema !== "string"){
(vErrors ??= []).push({instancePath:instancePath+"/$schema",keyword:"type",params:{type: "string"}});
}
}
if(data.description !== undefined){
let data1 = data.description;
if(typeof data1 === "string"){
if(func0(data1) > 500){
(vErrors ??= []).push({instancePath:instancePath+"/description",keyword:"maxLength",params:{limit: 500}});
}
}
else {
(vErrors ??= []).push({instancePath:instancePath+"/description",keyword:"type",params:{type: "string"}});
}
}
if(data.apiKeys !== undefined){
let data2 = data.apiKeys;
if(Array.isArray(data2)){
const len0 = data2.length;
for(let i0=0; i0<len0; i0++){
let data3 = data2[i0];
if(typeof data3 === "string"){
if(func0(data3) > 512){
(vErrors ??= []).push({instancePath:instancePath+"/apiKeys/" + i0,keyword:"maxLength",params:{limit: 512}});
}
if(func0(data3) < 1){
(vErrors ??= []).push({instancePath:instancePath+"/apiKeys/" + i0,keyword:"minLength",params:{limit: 1}});
}
if(!pattern0.test(data3)){
(vErrors ??= []).push({instancePath:instancePath+"/apiKeys/" + i0,keyword:"pattern",params:{pattern: "^[A-Za-z0-9._~+/-]+=*$"}});
}
}
else {
(vErrors ??= []).push({instancePath:instancePath+"/apiKeys/" + i0,keyword:"type",params:{type: "string"}});
}
}
}
else {
(vErrors ??= []).push({instancePath:instancePath+"/apiKeys",keyword:"type",params:{type: "array"}});
}
}
if(data.petsDeprecated !== undefined){
let data4 = data.petsDeprecated;
if(typeof data4 === "string"){
if(!(formats0.validate(data4))){
(vErrors ??= []).push({instancePath:instancePath+"/petsDeprecated",keyword:"format",params:{format: "date-time"}});
}
}
else {
(vErrors ??= []).push({instancePath:instancePath+"/petsDeprecated",keyword:"type",params:{type: "string"}});
}
}
if(data.petsSunset !== undefined){
let data5 = data.petsSunset;
if(typeof data5 === "string"){
if(!(formats0.validate(data5))){
(vErrors ??= []).push({instancePath:instancePath+"/petsSunset",keyword:"format",params:{format: "date-time"}});
}
}
else {
(vErrors ??= []).push({instancePath:instancePath+"/petsSunset",keyword:"type",params:{type: "string"}});
}
}
if(data.pets !== undefined){
let data6 = data.pets;
if(Array.isArray(data6)){
const len1 = data6.length;
for(let i1=0; i1<len1; i1++){
let data7 = data6[i1];
if(data7 && typeof data7 == "object" && !Array.isArray(data7)){
for(const prop0 of ["id"]){
if(data7[prop0] === undefined){
(vErrors ??= []).push({instancePath:instancePath+"/pets/" + i1,keyword:"required",params:{missingProperty: prop0}});
}
}
if(data7.id !== undefined){
let data8 = data7.id;
if(!(Number.isInteger(data8))){
(vErrors ??= []).push({instancePath:instancePath+"/pets/" + i1+"/id",keyword:"type",params:{type: "integer"}});
}
}
}
else {
(vErrors ??= []).push({instancePath:instancePath+"/pets/" + i1,keyword:"type",params:{type: "object"}});
}
}
}
else {
(vErrors ??= []).push({instancePath:instancePath+"/pets",keyword:"type",params:{type: "array"}});
}
}
if(data.orders !== undefined){
let data9 = data.orders;
if(Array.isArray(data9)){
const len2 = data9.length;
for(let i2=0; i2<len2; i2++){
let data10 = data9[i2];
if(data10 && typeof data10 == "object" && !Array.isArray(data10)){
for(const prop1 of ["id"]){
if(data10[prop1] === undefined){
(vErrors ??= []).push({instancePath:instancePath+"/orders/" + i2,keyword:"required",params:{missingProperty: prop1}});
}
}
for(const key1 in data10){
if(!(((((((key1 === "id") || (key1 === "petId")) || (key1 === "quantity")) || (key1 === "shipDate")) || (key1 === "status")) || (key1 === "state")) || (key1 === "complete"))){
(vErrors ??= []).push({instancePath:instancePath+"/orders/" + i2,keyword:"additionalProperties",params:{additionalProperty: key1}});
}
}
if(data10.id !== undefined){
let data11 = data10.id;
if(!(Number.isInteger(data11))){
(vErrors ??= []).push({instancePath:instancePath+"/orders/" + i2+"/id",keyword:"type",params:{type: "integer"}});
}
}
if(data10.petId !== undefined){
let data12 = data10.petId;
if(!(Number.isInteger(data12))){
(vErrors ??= []).push({instancePath:instancePath+"/orders/" + i2+"/petId",keyword:"type",params:{type: "integer"}});
}
}
if(data10.quantity !== undefined){
let data13 = data10.quantity;
if(!(Number.isInteger(data13))){
(vErrors ??= []).push({instancePath:instancePath+"/orders/" + i2+"/quantity",keyword:"type",params:{type: "integer"}});
}
}
if(data10.shipDate !== undefined){
let data14 = data10.shipDate;
if(typeof data14 === "string"){
if(!(formats0.validate(data14))){
(vErrors ??= []).push({instancePath:instancePath+"/orders/" + i2+"/shipDate",keyword:"format",params:{format: "date-time"}});
}
}
else {
(vErrors ??= []).push({instancePath:instancePath+"/orders/" + i2+"/shipDate",keyword:"type",params:{type: "string"}});
}
}
if(data10.status !== undefined){
let data15 = data10.status;
if(!(((data15 === "pending") || (data15 === "shipped")) || (data15 === "cancelled"))){
(vErrors ??= []).push({instancePath:instancePath+"/orders/" + i2+"/status",keyword:"enum",params:{allowedValues: ["pending","shipped","cancelled"]}});
}
}
if(data10.state !== undefined){
let data16 = data10.state;
if(!(((data16 === "pending") || (data16 === "shipped")) || (data16 === "cancelled"))){
(vErrors ??= []).push({instancePath:instancePath+"/orders/" + i2+"/state",keyword:"enum",params:{allowedValues: ["pending","shipped","cancelled"]}});
}
}
if(data10.complete !== undefined){
if(typeof data10.complete !== "boolean"){
(vErrors ??= []).push({instancePath:instancePath+"/orders/" + i2+"/complete",keyword:"type",params:{type: "boolean"}});
}
}
}
else {
(vErrors ??= []).push({instancePath:instancePath+"/orders/" + i2,keyword:"type",params:{type: "object"}});
}
}
}
else {
(vErrors ??= []).push({instancePath:instancePath+"/orders",keyword:"type",params:{type: "array"}});
}
}
}
else {
(vErrors ??= []).push({instancePath,keyword:"type",params:{type: "object"}});
}
validate0.errors = vErrors;
return vErrors === null;
}


/** Checks the content of a fixture file; its errors name where (`instancePath`) and why. */
export const validateFixtures: FixtureValidator = v0;
